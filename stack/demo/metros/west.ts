/** West-coast metros: Seattle, San Francisco, Los Angeles. */
import { nb, type MetroSeed } from './types';

export const WEST_METROS: MetroSeed[] = [
  {
    slug: 'seattle', name: 'Seattle', state: 'WA', latitude: 47.6062, longitude: -122.3321, costLevel: 1.1, weight: 0.8,
    cities: [
      { slug: 'seattle', name: 'Seattle', state: 'WA', latitude: 47.6062, longitude: -122.3321, urban: 0.8, radiusMiles: 3.5, weight: 4,
        streets: ['Pine St', 'Westlake Ave N', '1st Ave', 'NW Market St', 'Fremont Ave N'],
        neighborhoods: [
          nb('Capitol Hill', 'Nightlife, coffee roasters and Volunteer Park on the hill east of downtown.'),
          nb('South Lake Union', 'Tech offices, a lakeside park and the streetcar.'),
          nb('Belltown', 'High-rises and restaurants between Pike Place Market and the Space Needle.'),
          nb('Ballard', 'A maritime neighborhood with breweries and the Sunday market.'),
          nb('Fremont', 'Quirky public art and canal-side trails.'),
        ] },
      { slug: 'bellevue', name: 'Bellevue', state: 'WA', latitude: 47.6101, longitude: -122.2015, urban: 0.55, radiusMiles: 3, weight: 2,
        streets: ['Bellevue Way NE', 'NE 8th St', '156th Ave NE'],
        neighborhoods: [
          nb('Downtown Bellevue', 'Glass towers, a downtown park and light rail across the lake.'),
          nb('Crossroads', 'Diverse restaurants and a community center on the east side.'),
          nb('Wilburton', 'A growing district along the Eastside Rail Corridor trail.'),
        ] },
      { slug: 'redmond', name: 'Redmond', state: 'WA', latitude: 47.674, longitude: -122.1215, urban: 0.45, radiusMiles: 3, weight: 1,
        streets: ['Redmond Way', 'Cleveland St', '152nd Ave NE'],
        neighborhoods: [
          nb('Downtown Redmond', 'The Redmond Central Connector trail and a riverside park.'),
          nb('Overlake', 'Tech campuses and new apartments around the light-rail stations.'),
        ] },
      { slug: 'kirkland', name: 'Kirkland', state: 'WA', latitude: 47.6769, longitude: -122.206, urban: 0.5, radiusMiles: 2, weight: 1,
        streets: ['Lake St', 'Market St', 'Totem Lake Blvd'],
        neighborhoods: [
          nb('Moss Bay', 'A lakefront downtown with galleries and a marina.'),
          nb('Totem Lake', 'A redeveloped shopping district with new mid-rise homes.'),
          nb('Juanita', 'A quiet beach park and neighborhood village on Lake Washington.'),
        ] },
    ],
  },
  {
    slug: 'san-francisco', name: 'San Francisco', state: 'CA', latitude: 37.7749, longitude: -122.4194, costLevel: 1.3, weight: 1,
    cities: [
      { slug: 'san-francisco', name: 'San Francisco', state: 'CA', latitude: 37.7749, longitude: -122.4194, urban: 0.95, radiusMiles: 2.5, weight: 4,
        streets: ['Market St', 'Mission St', 'Valencia St', 'Hayes St', 'Chestnut St', 'Folsom St'],
        neighborhoods: [
          nb('SoMa', 'Tech offices, museums and converted lofts south of Market Street.'),
          nb('Mission District', 'Murals, taquerias and sunny Dolores Park.'),
          nb('Nob Hill', 'Cable cars, grand hotels and views over the bay.'),
          nb('Marina', 'Waterfront paths near the Palace of Fine Arts and Crissy Field.'),
          nb('Hayes Valley', 'Boutiques and cafes around Patricia\'s Green near the symphony.'),
        ] },
      { slug: 'oakland', name: 'Oakland', state: 'CA', latitude: 37.8044, longitude: -122.2712, urban: 0.75, radiusMiles: 3, weight: 2,
        streets: ['Broadway', 'Grand Ave', 'College Ave', 'Telegraph Ave'],
        neighborhoods: [
          nb('Downtown Oakland', 'BART stations, historic theaters and City Center plazas.'),
          nb('Lake Merritt', 'A tidal lake ringed by a walking loop and farmers markets.'),
          nb('Rockridge', 'Shops and bakeries on College Avenue with a BART stop.'),
          nb('Temescal', 'Brunch spots and small shops along Telegraph Avenue.'),
        ] },
      { slug: 'berkeley', name: 'Berkeley', state: 'CA', latitude: 37.8715, longitude: -122.273, urban: 0.75, radiusMiles: 2, weight: 1,
        streets: ['Shattuck Ave', 'Telegraph Ave', 'College Ave'],
        neighborhoods: [
          nb('Downtown Berkeley', 'Theaters and BART beside the UC Berkeley campus.'),
          nb('Elmwood', 'A charming shopping district among craftsman homes.'),
          nb('Gourmet Ghetto', 'The birthplace of California cuisine on North Shattuck.'),
        ] },
      { slug: 'san-mateo', name: 'San Mateo', state: 'CA', latitude: 37.563, longitude: -122.3255, urban: 0.5, radiusMiles: 2.5, weight: 0.8,
        streets: ['B St', 'El Camino Real', '3rd Ave'],
        neighborhoods: [
          nb('Downtown San Mateo', 'Restaurants and Caltrain halfway between San Francisco and San Jose.'),
          nb('Hayward Park', 'Newer transit-oriented apartments near the Caltrain station.'),
        ] },
      { slug: 'palo-alto', name: 'Palo Alto', state: 'CA', latitude: 37.4419, longitude: -122.143, urban: 0.55, radiusMiles: 2.5, weight: 0.8,
        streets: ['University Ave', 'California Ave', 'Alma St'],
        neighborhoods: [
          nb('Downtown Palo Alto', 'Cafes and start-up offices next to Stanford and Caltrain.'),
          nb('California Avenue', 'A relaxed main street with a Sunday farmers market.'),
        ] },
    ],
  },
  {
    slug: 'los-angeles', name: 'Los Angeles', state: 'CA', latitude: 34.0522, longitude: -118.2437, costLevel: 1.15, weight: 1.2,
    cities: [
      { slug: 'los-angeles', name: 'Los Angeles', state: 'CA', latitude: 34.0522, longitude: -118.2437, urban: 0.7, radiusMiles: 4, weight: 4,
        streets: ['S Grand Ave', 'Wilshire Blvd', 'Sunset Blvd', 'Hollywood Blvd', 'Westwood Blvd'],
        neighborhoods: [
          nb('Downtown LA', 'Historic theaters, the Arts District and rooftop pools.'),
          nb('Koreatown', 'Round-the-clock restaurants and karaoke along Wilshire Boulevard.'),
          nb('Silver Lake', 'Hillside homes, a reservoir loop and indie coffee shops.'),
          nb('Hollywood', 'The Walk of Fame, studios and the Hollywood Bowl.'),
          nb('Westwood', 'A village center next to the UCLA campus.'),
        ] },
      { slug: 'santa-monica', name: 'Santa Monica', state: 'CA', latitude: 34.0195, longitude: -118.4912, urban: 0.8, radiusMiles: 1.5, weight: 1.5,
        streets: ['Ocean Ave', 'Main St', 'Montana Ave', '4th St'],
        neighborhoods: [
          nb('Ocean Park', 'Beach cottages and the shops of Main Street.'),
          nb('Wilshire Montana', 'Quiet streets near the boutiques of Montana Avenue.'),
          nb('Downtown Santa Monica', 'The Third Street Promenade, the pier and the Expo Line.'),
        ] },
      { slug: 'pasadena', name: 'Pasadena', state: 'CA', latitude: 34.1478, longitude: -118.1445, urban: 0.6, radiusMiles: 2.5, weight: 1,
        streets: ['E Colorado Blvd', 'S Lake Ave', 'E Green St'],
        neighborhoods: [
          nb('Old Pasadena', 'Restored brick buildings, shops and the Gold Line.'),
          nb('Playhouse Village', 'A theater, galleries and cafes east of downtown.'),
          nb('South Lake', 'An upscale shopping avenue near Caltech.'),
        ] },
      { slug: 'long-beach', name: 'Long Beach', state: 'CA', latitude: 33.7701, longitude: -118.1937, urban: 0.55, radiusMiles: 3, weight: 1,
        streets: ['E Ocean Blvd', 'E 2nd St', 'Atlantic Ave'],
        neighborhoods: [
          nb('Belmont Shore', 'A beach neighborhood with a busy 2nd Street of shops.'),
          nb('Downtown Long Beach', 'The waterfront, the aquarium and the Metro A Line.'),
          nb('Bixby Knolls', 'Tree-lined streets and local shops north of downtown.'),
        ] },
      { slug: 'west-hollywood', name: 'West Hollywood', state: 'CA', latitude: 34.09, longitude: -118.3617, urban: 0.85, radiusMiles: 1, weight: 1,
        streets: ['Santa Monica Blvd', 'Sunset Blvd', 'N La Cienega Blvd'],
        neighborhoods: [
          nb('Sunset Strip', 'Legendary music clubs, hotels and billboards on Sunset Boulevard.'),
          nb('Norma Triangle', 'A quiet residential pocket just below the Strip.'),
        ] },
      { slug: 'burbank', name: 'Burbank', state: 'CA', latitude: 34.1808, longitude: -118.309, urban: 0.45, radiusMiles: 2.5, weight: 0.8,
        streets: ['W Magnolia Blvd', 'N San Fernando Blvd', 'W Olive Ave'],
        neighborhoods: [
          nb('Magnolia Park', 'Vintage shops and diners along Magnolia Boulevard.'),
          nb('Media District', 'Studio lots and offices of the entertainment industry.'),
        ] },
    ],
  },
];
