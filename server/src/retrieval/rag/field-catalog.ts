// The built-in catalog of common CMS fields aiSuggestField retrieves from beside the site's own fields.
import type { Field } from '@lumibase/shared';

export interface CatalogField {
  field: Field;
  /** One line: what the field holds. */
  description: string;
  /** Other words admins use for it; embedded with the description. */
  synonyms: readonly string[];
}

/** What `similar` names as the collection of a catalog field; never a collection name (those match ^[a-z]). */
export const CATALOG_COLLECTION = '(catalog)';

function entry(
  name: string,
  type: Field['type'],
  description: string,
  synonyms: readonly string[],
  options?: Record<string, unknown>,
): CatalogField {
  return { field: { name, type, required: false, ...(options ? { options } : {}) }, description, synonyms };
}

export const FIELD_CATALOG: readonly CatalogField[] = [
  entry('title', 'string', 'The headline or name shown for the entry', ['headline', 'name', 'heading', 'caption']),
  entry('subtitle', 'string', 'A secondary line shown under the title', ['subheading', 'tagline', 'strapline', 'dek']),
  entry('slug', 'string', 'The URL-safe identifier used in the entry’s address', ['permalink', 'url path', 'handle', 'url key']),
  entry('summary', 'text', 'A short description or excerpt of the content', ['excerpt', 'abstract', 'teaser', 'blurb', 'intro', 'lede']),
  entry('body', 'text', 'The main content of the entry, as long text or markdown', [
    'content',
    'article text',
    'markdown',
    'copy',
    'main text',
  ]),
  entry('published_at', 'datetime', 'When the entry was or will be published', [
    'publish date',
    'publication date',
    'go live',
    'release date',
  ]),
  entry('updated_at', 'datetime', 'When the entry was last changed', ['last modified', 'modified date', 'edited at']),
  entry('event_date', 'datetime', 'When the event takes place', ['starts at', 'start time', 'schedule', 'date of the event']),
  entry('author', 'string', 'The name of the person who wrote the entry', ['writer', 'byline', 'contributor', 'creator name']),
  entry('created_by', 'string', 'The user who created the entry', ['owner', 'creator', 'added by', 'submitted by']),
  entry('tags', 'json', 'A list of keywords the entry is filed under', ['keywords', 'labels', 'topics', 'hashtags']),
  entry('category', 'string', 'The section or group the entry belongs to', ['section', 'group', 'type of entry', 'department', 'genre']),
  entry('status', 'enum', 'The editorial state of the entry', ['state', 'workflow stage', 'draft or published', 'stage'], {
    values: ['draft', 'review', 'published', 'archived'],
  }),
  entry('featured', 'boolean', 'Whether the entry is highlighted on the home page', ['highlighted', 'pinned', 'promoted', 'spotlight']),
  entry('price', 'number', 'The price of the product in the store’s currency', ['cost', 'amount', 'fee', 'how much it costs']),
  entry('currency', 'string', 'The ISO 4217 code of the price’s currency', ['currency code', 'money unit', 'EUR USD']),
  entry('discount_percent', 'number', 'The percentage taken off the price', ['sale', 'reduction', 'percent off', 'markdown']),
  entry('sku', 'string', 'The stock-keeping unit code identifying the product', [
    'product code',
    'article number',
    'item code',
    'part number',
  ]),
  entry('stock', 'integer', 'How many units are in stock', ['inventory', 'quantity', 'units available', 'on hand']),
  entry('weight_grams', 'number', 'The product’s weight in grams', ['weight', 'mass', 'shipping weight']),
  entry('image_url', 'string', 'The address of the main image', ['picture', 'photo', 'cover image', 'thumbnail', 'hero image']),
  entry('image_alt', 'string', 'The alternative text describing the image', ['alt text', 'image description', 'accessibility text']),
  entry('video_url', 'string', 'The address of a video', ['movie', 'clip', 'youtube link', 'embed']),
  entry('url', 'string', 'A link to a web page', ['link', 'website', 'homepage', 'web address']),
  entry('email', 'string', 'An email address', ['e-mail', 'mail address', 'contact email']),
  entry('phone', 'string', 'A telephone number', ['telephone', 'mobile', 'cell phone', 'contact number']),
  entry('address', 'text', 'A postal address', ['street address', 'location', 'mailing address']),
  entry('city', 'string', 'The city or town', ['town', 'municipality', 'locality']),
  entry('country', 'string', 'The country, as its name or ISO code', ['nation', 'country code']),
  entry('latitude', 'number', 'The latitude of the location in degrees', ['lat', 'geo coordinate north']),
  entry('longitude', 'number', 'The longitude of the location in degrees', ['lng', 'lon', 'geo coordinate east']),
  entry('rating', 'number', 'A score given in a review, from 1 to 5', ['stars', 'score', 'review score', 'grade']),
  entry('reading_time_minutes', 'integer', 'The estimated minutes it takes to read the entry', [
    'read time',
    'reading length',
    'minutes to read',
  ]),
  entry('seo_title', 'string', 'The title search engines show', ['meta title', 'page title', 'search title']),
  entry('seo_description', 'text', 'The description search engines show under the title', [
    'meta description',
    'search snippet',
    'search description',
  ]),
  entry('language', 'string', 'The language the entry is written in, as a code such as en', ['locale', 'lang', 'translation language']),
  entry('sort_order', 'integer', 'The position of the entry in a manual ordering', ['position', 'order', 'rank', 'weight']),
  entry('is_active', 'boolean', 'Whether the entry is enabled and visible', ['enabled', 'visible', 'active', 'on or off']),
  entry('first_name', 'string', 'A person’s given name', ['given name', 'forename']),
  entry('last_name', 'string', 'A person’s family name', ['surname', 'family name']),
  entry('bio', 'text', 'A short biography of a person', ['biography', 'about me', 'profile text']),
  entry('company', 'string', 'The name of an organisation', ['organisation', 'organization', 'employer', 'business']),
  entry('metadata', 'json', 'Free-form structured data', ['extra data', 'attributes', 'properties', 'custom data']),
];

/** The words a catalog field is retrieved by. */
export function catalogFieldText({ field, description, synonyms }: CatalogField): string {
  return `${field.name.replaceAll('_', ' ')} (${field.type}): ${description}. Also called: ${synonyms.join(', ')}.`;
}
