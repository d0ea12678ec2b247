import { describe, expect, it } from 'vitest';
import { MESSAGE_UNDELIVERABLE } from '../../../../api/contract/texts';
import { ApiError } from '../../api/client';
import { finalRefusal } from './useOutbox';

describe('finalRefusal: a message that sending again cannot deliver', () => {
  it("is refused by the abuse filter, with the filter's reason", () => {
    expect(finalRefusal(new ApiError(400, 'abusive_text', 'Please keep it kind.'))).toBe('Please keep it kind.');
  });

  it('is refused by a block, whose text says so', () => {
    expect(finalRefusal(new ApiError(403, 'forbidden', MESSAGE_UNDELIVERABLE))).toBe(MESSAGE_UNDELIVERABLE);
    // The socket's ack carries the same code and text on a plain Error.
    expect(finalRefusal(Object.assign(new Error(MESSAGE_UNDELIVERABLE), { code: 'forbidden' }))).toBe(MESSAGE_UNDELIVERABLE);
  });

  it('is worth a Retry otherwise: offline, another 403, a server fault, anything not an Error', () => {
    expect(finalRefusal(new ApiError(0, 'network_error', 'offline'))).toBeUndefined();
    expect(finalRefusal(new ApiError(403, 'forbidden', 'Not a member.'))).toBeUndefined();
    expect(finalRefusal(new ApiError(500, 'http_500', 'Internal Server Error'))).toBeUndefined();
    expect(finalRefusal('abusive_text')).toBeUndefined();
  });
});
