import { useState } from 'react';
import {
  CANCEL_LINK,
  CANCEL_LINK_BODY,
  CANCEL_LINK_CONFIRM,
  CANCEL_LINK_FAILED,
  CANCEL_LINK_KEEP,
  CANCEL_LINK_TITLE,
} from '../../../../api/contract/texts';
import { errorMessage } from '../../api/client';
import { useCancelLink } from '../../api/links';
import type { LinkView } from '../../api/types';
import { Dialog } from '../../components/Dialog';

/** The owner's 'Cancel link' on an open give link, behind a confirmation dialog. */
export function CancelLink({ link }: { link: LinkView }) {
  const [asking, setAsking] = useState(false);
  const cancel = useCancelLink(link);
  const close = () => {
    if (cancel.isPending) return;
    setAsking(false);
    cancel.reset();
  };
  return (
    <>
      <button type="button" className="btn btn--block" onClick={() => setAsking(true)}>
        {CANCEL_LINK}
      </button>
      {asking ? (
        <Dialog
          title={CANCEL_LINK_TITLE}
          message={CANCEL_LINK_BODY}
          body={cancel.isError ? <p role="alert">{errorMessage(cancel.error, CANCEL_LINK_FAILED)}</p> : undefined}
          onDismiss={close}
        >
          <button type="button" className="btn" onClick={close} disabled={cancel.isPending} data-autofocus>
            {CANCEL_LINK_KEEP}
          </button>
          <button
            type="button"
            className="btn btn--primary"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate(undefined, { onSuccess: () => setAsking(false) })}
          >
            {CANCEL_LINK_CONFIRM}
          </button>
        </Dialog>
      ) : null}
    </>
  );
}
