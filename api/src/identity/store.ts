/**
 * SQL for the key of the anonymous conversation of giver `giver` towards recipient `recipient`
 * (expressions): null while that persona does not exist.
 */
export const anonymousPairKeySql = (giver: string, recipient: string): string =>
  `('anon:' || (SELECT p.id FROM anonymous_pseudonyms p WHERE p.giver_id = ${giver} AND p.recipient_id = ${recipient}))`;
