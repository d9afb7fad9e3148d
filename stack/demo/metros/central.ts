/** Central metros: Chicago, Austin, Nashville, Denver. */
import { nb, type MetroSeed } from './types';

export const CENTRAL_METROS: MetroSeed[] = [
  {
    slug: 'chicago', name: 'Chicago', state: 'IL', latitude: 41.8781, longitude: -87.6298, costLevel: 0.95, weight: 1,
    cities: [
      { slug: 'chicago', name: 'Chicago', state: 'IL', latitude: 41.8781, longitude: -87.6298, urban: 0.85, radiusMiles: 4, weight: 4,
        streets: ['N Michigan Ave', 'W Randolph St', 'N Clark St', 'N Milwaukee Ave', 'S Wabash Ave'],
        neighborhoods: [
          nb('River North', 'Galleries, steakhouses and high-rises just north of the Loop.'),
          nb('Lincoln Park', 'Tree-lined streets beside the lakefront park and a free zoo.'),
          nb('West Loop', 'Restaurant Row on Randolph Street and converted warehouse lofts.'),
          nb('Wicker Park', 'Vintage shops, bars and the Blue Line at the six-corner intersection.'),
          nb('South Loop', 'Museum Campus, Grant Park and newer towers along Michigan Avenue.'),
        ] },
      { slug: 'evanston', name: 'Evanston', state: 'IL', latitude: 42.0451, longitude: -87.6877, urban: 0.65, radiusMiles: 2, weight: 1,
        streets: ['Sherman Ave', 'Chicago Ave', 'Davis St', 'Main St'],
        neighborhoods: [
          nb('Downtown Evanston', 'Shops and restaurants next to Northwestern University and Metra.'),
          nb('Dempster Street', 'A lakeside stretch of small businesses and vintage apartment buildings.'),
        ] },
      { slug: 'oak-park', name: 'Oak Park', state: 'IL', latitude: 41.885, longitude: -87.7845, urban: 0.6, radiusMiles: 1.5, weight: 0.8,
        streets: ['Lake St', 'Marion St', 'Harlem Ave'],
        neighborhoods: [
          nb('Downtown Oak Park', 'A walkable village center on the Green Line and Metra.'),
          nb('Frank Lloyd Wright District', 'Prairie-style landmark homes on quiet residential streets.'),
        ] },
      { slug: 'hammond', name: 'Hammond', state: 'IN', latitude: 41.5834, longitude: -87.5, urban: 0.35, radiusMiles: 3, weight: 0.5,
        streets: ['Hohman Ave', 'Calumet Ave', 'Indianapolis Blvd'],
        neighborhoods: [
          nb('Downtown Hammond', 'A historic downtown with South Shore Line trains to the Loop.'),
          nb('Robertsdale', 'A lakeside neighborhood near Wolf Lake and the Indiana state line.'),
        ] },
    ],
  },
  {
    slug: 'austin', name: 'Austin', state: 'TX', latitude: 30.2672, longitude: -97.7431, costLevel: 0.9, weight: 0.7,
    cities: [
      { slug: 'austin', name: 'Austin', state: 'TX', latitude: 30.2672, longitude: -97.7431, urban: 0.6, radiusMiles: 4, weight: 4,
        streets: ['Congress Ave', 'E 6th St', 'S Lamar Blvd', 'Guadalupe St', 'E Cesar Chavez St'],
        neighborhoods: [
          nb('Downtown Austin', 'Live music venues, Lady Bird Lake trails and the Capitol.'),
          nb('South Congress', 'Boutiques, food trucks and skyline views south of the river.'),
          nb('East Austin', 'Murals, breweries and taco spots east of I-35.'),
          nb('Hyde Park', 'Historic bungalows near the University of Texas campus.'),
          nb('North Burnet', 'The Domain district of shops, offices and new apartments.'),
        ] },
      { slug: 'round-rock', name: 'Round Rock', state: 'TX', latitude: 30.5083, longitude: -97.6789, urban: 0.3, radiusMiles: 3, weight: 1,
        streets: ['E Main St', 'N Mays St', 'Sam Bass Rd'],
        neighborhoods: [
          nb('Downtown Round Rock', 'A restored historic main street with local restaurants.'),
          nb('La Frontera', 'Shopping, offices and easy access to the tech campuses on I-35.'),
        ] },
      { slug: 'pflugerville', name: 'Pflugerville', state: 'TX', latitude: 30.4394, longitude: -97.62, urban: 0.25, radiusMiles: 3, weight: 0.7,
        streets: ['W Pecan St', 'Railroad Ave', 'Heatherwilde Blvd'],
        neighborhoods: [
          nb('Old Town Pflugerville', 'A small-town center with a lake park and hike-and-bike trails.'),
          nb('Falcon Pointe', 'A planned community with pools, parks and walking paths.'),
        ] },
    ],
  },
  {
    slug: 'nashville', name: 'Nashville', state: 'TN', latitude: 36.1627, longitude: -86.7816, costLevel: 0.85, weight: 0.6,
    cities: [
      { slug: 'nashville', name: 'Nashville', state: 'TN', latitude: 36.1627, longitude: -86.7816, urban: 0.55, radiusMiles: 4, weight: 4,
        streets: ['Broadway', 'Church St', '12th Ave S', 'Gallatin Ave', 'Division St'],
        neighborhoods: [
          nb('The Gulch', 'Rooftop bars and new towers a short walk from Lower Broadway.'),
          nb('East Nashville', 'Craft coffee, bungalows and neighborhood music clubs across the river.'),
          nb('Germantown', 'Brick row houses, top restaurants and the farmers market.'),
          nb('Midtown', 'Music Row studios and nightlife near Vanderbilt University.'),
          nb('12 South', 'A walkable strip of boutiques and cafes near Sevier Park.'),
        ] },
      { slug: 'franklin', name: 'Franklin', state: 'TN', latitude: 35.9251, longitude: -86.8689, urban: 0.35, radiusMiles: 3, weight: 1,
        streets: ['Main St', 'Columbia Ave', 'Mallory Ln'],
        neighborhoods: [
          nb('Downtown Franklin', 'A Victorian main street with antique shops and Civil War history.'),
          nb('Cool Springs', 'Corporate campuses, shopping and newer apartment communities.'),
        ] },
      { slug: 'brentwood', name: 'Brentwood', state: 'TN', latitude: 36.0331, longitude: -86.7828, urban: 0.25, radiusMiles: 2.5, weight: 0.6,
        streets: ['Franklin Rd', 'Maryland Way', 'Old Hickory Blvd'],
        neighborhoods: [
          nb('Maryland Farms', 'An office park district with greenways and a YMCA.'),
          nb('Brentwood Town Center', 'Shops and restaurants around the city library and parks.'),
        ] },
      { slug: 'murfreesboro', name: 'Murfreesboro', state: 'TN', latitude: 35.8456, longitude: -86.3903, urban: 0.3, radiusMiles: 3, weight: 0.6,
        streets: ['E Main St', 'N Broad St', 'Medical Center Pkwy'],
        neighborhoods: [
          nb('Downtown Murfreesboro', 'A courthouse square with local shops near MTSU.'),
          nb('The Gateway', 'Newer offices, hotels and apartments along Medical Center Parkway.'),
        ] },
    ],
  },
  {
    slug: 'denver', name: 'Denver', state: 'CO', latitude: 39.7392, longitude: -104.9903, costLevel: 0.95, weight: 0.7,
    cities: [
      { slug: 'denver', name: 'Denver', state: 'CO', latitude: 39.7392, longitude: -104.9903, urban: 0.7, radiusMiles: 4, weight: 4,
        streets: ['Larimer St', 'Blake St', 'E Colfax Ave', 'W 32nd Ave', 'E 1st Ave'],
        neighborhoods: [
          nb('LoDo', 'Restored warehouses, Union Station and the ballpark.'),
          nb('RiNo', 'The River North Art District of murals, breweries and food halls.'),
          nb('Capitol Hill', 'Historic mansions, vintage apartments and Cheesman Park.'),
          nb('Highland', 'Bungalows and patios with skyline views across the Platte.'),
          nb('Cherry Creek', 'Upscale shopping and a creekside bike trail.'),
        ] },
      { slug: 'aurora', name: 'Aurora', state: 'CO', latitude: 39.7294, longitude: -104.8319, urban: 0.35, radiusMiles: 4, weight: 1,
        streets: ['E Colfax Ave', 'S Havana St', 'E Montview Blvd'],
        neighborhoods: [
          nb('Fitzsimons', 'Apartments near the Anschutz Medical Campus and its hospitals.'),
          nb('Aurora City Center', 'Civic buildings, a light-rail stop and a regional mall.'),
        ] },
      { slug: 'lakewood', name: 'Lakewood', state: 'CO', latitude: 39.7047, longitude: -105.0814, urban: 0.4, radiusMiles: 3, weight: 0.8,
        streets: ['W Alameda Ave', 'Wadsworth Blvd', 'W Colfax Ave'],
        neighborhoods: [
          nb('Belmar', 'A walkable downtown of shops, a cinema and plazas.'),
          nb('Green Mountain', 'Foothill trails and open space at the edge of the city.'),
        ] },
      { slug: 'boulder', name: 'Boulder', state: 'CO', latitude: 40.015, longitude: -105.2705, urban: 0.6, radiusMiles: 3, weight: 1,
        streets: ['Pearl St', 'Broadway', '28th St', 'Baseline Rd'],
        neighborhoods: [
          nb('Downtown Boulder', 'The Pearl Street pedestrian mall with the Flatirons as a backdrop.'),
          nb('University Hill', 'Cafes and student energy beside the CU campus.'),
          nb('North Boulder', 'Arts district, open space and trailheads north of downtown.'),
        ] },
    ],
  },
];
