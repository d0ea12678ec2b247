/** The links requests and answers are part of the contract shared with the renderer. */
export * from '../../contract/links.js';
export { PageQuery } from '../../contract/common.js';
export { UsernameParams } from '../../contract/users.js';
export { LINK_PAGE_SIZE } from '../../contract/limits.js';
export {
  ALREADY_USED,
  INCOMPLETE_LINK,
  LINK_GONE,
  LINK_NOT_FOUND,
  ONE_ACTIVE_LINK,
  OWN_POST,
  QUANTITY_REQUIRED,
} from '../../contract/texts.js';
