import { z } from 'zod';
import { SHARE_FORMATS, SHARE_TEMPLATES } from './urls.js';

/** GET /links/{username}/image and GET /wishlists/{username}/image: template standard and format story unless given. */
export const ShareImageQuery = z.object({
  template: z.enum(SHARE_TEMPLATES, { error: `template: must be one of ${SHARE_TEMPLATES.join(', ')}` }).default('standard'),
  format: z.enum(SHARE_FORMATS, { error: `format: must be one of ${SHARE_FORMATS.join(', ')}` }).default('story'),
});
