import { ruleTable } from '../testing/policy.js';
import { canActAs, canSeePrivateProfile, type Viewer } from './policy.js';

const ana: Viewer = { id: 'id-ana', username: 'ana' };
const socketOfAna: Viewer = { id: 'id-ana' };

ruleTable('canActAs: a request may name only the signed-in user as the one acting', canActAs, [
  ['names no one', ana, {}, true],
  ['names no one (both undefined)', ana, { userId: undefined, username: undefined }, true],
  ['their own id', ana, { userId: 'id-ana' }, true],
  ["someone else's id", ana, { userId: 'id-bo' }, false],
  ['an empty id', ana, { userId: '' }, false],
  ['their own username', ana, { username: 'ana' }, true],
  ['their own username in another case', ana, { username: 'ANA' }, true],
  ["someone else's username", ana, { username: 'bo' }, false],
  ['their username with spaces', ana, { username: ' ana' }, false],
  ['their id and username', ana, { userId: 'id-ana', username: 'Ana' }, true],
  ['their id and another username', ana, { userId: 'id-ana', username: 'bo' }, false],
  ['another id and their username', ana, { userId: 'id-bo', username: 'ana' }, false],
  ['a socket (id only): its id', socketOfAna, { userId: 'id-ana' }, true],
  ['a socket (id only): another id', socketOfAna, { userId: 'id-bo' }, false],
  ['a socket (id only): any username', socketOfAna, { username: 'ana' }, false],
]);

ruleTable('canSeePrivateProfile: email, balance and payment ids are for the user alone', canSeePrivateProfile, [
  ['themselves', ana, { id: 'id-ana' }, true],
  ['someone else', ana, { id: 'id-bo' }, false],
  ['a visitor', undefined, { id: 'id-ana' }, false],
]);
