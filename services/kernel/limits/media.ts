/** How many photos an answer lists or embeds. */

/** Photos in the `media` of an apartment, a quote and a compared apartment: unit photos first, hero first. */
export const MEDIA_PHOTOS = 6;

/** Photos in the `media` of a search result: the hero alone. */
export const SEARCH_RESULT_PHOTOS = 1;

/** Hero photos a page of the apartment search embeds as images (include_hero_images). */
export const HERO_IMAGES_PER_PAGE = 5;
