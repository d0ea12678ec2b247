import { useId, useState } from 'react';
import { REPORT_NOTE_MAX_LENGTH, REPORT_REASONS } from '../../../../api/contract/limits';
import type { ReportReason } from '../../../../api/contract/reports';
import { REPORT_ERROR, REPORT_REASON_LABELS, REPORT_REASON_REQUIRED, REPORT_THANKS } from '../../../../api/contract/texts';
import { errorMessage } from '../../api/client';
import { useSendReport } from '../../api/reports';
import type { ConversationView, MessageView } from '../../api/types';
import { Dialog } from '../../components/Dialog';
import './ReportDialog.css';

/**
 * Report a message (`messageId`) or the whole conversation: a reason, an optional note, Send.
 * The answer is only a thank-you; the server works out who is reported and never says.
 */
export function ReportDialog({ conversationId, messageId, onClose }: { conversationId: string; messageId?: string; onClose: () => void }) {
  const send = useSendReport();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const noteId = useId();
  const dismiss = () => {
    if (!send.isPending) onClose();
  };

  if (send.isSuccess)
    return (
      <Dialog title="Report sent" message={REPORT_THANKS} onDismiss={onClose}>
        <button type="button" className="btn btn--primary" onClick={onClose} data-autofocus>
          Close
        </button>
      </Dialog>
    );

  const submit = () => {
    if (!reason) return setError(REPORT_REASON_REQUIRED);
    setError(null);
    const trimmed = note.trim();
    send.mutate(
      { conversationId, messageId, reason, note: trimmed || undefined },
      { onError: (err) => setError(errorMessage(err, REPORT_ERROR)) },
    );
  };

  return (
    <Dialog
      className="report-dialog"
      title={messageId ? 'Report this message' : 'Report this conversation'}
      message="What is wrong with it? We won't tell them you reported it."
      onDismiss={dismiss}
      body={
        <form
          id={`${noteId}-form`}
          className="report-form"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <fieldset className="report-form__reasons">
            <legend className="visually-hidden">Reason</legend>
            {REPORT_REASONS.map((r, i) => (
              <label key={r} className="report-form__reason">
                <input
                  type="radio"
                  name="reason"
                  value={r}
                  checked={reason === r}
                  onChange={() => {
                    setReason(r);
                    setError(null);
                  }}
                  data-autofocus={i === 0 ? true : undefined}
                />
                <span>{REPORT_REASON_LABELS[r]}</span>
              </label>
            ))}
          </fieldset>
          <label className="report-form__note-label" htmlFor={noteId}>
            Anything else we should know? <span className="report-form__optional">(optional)</span>
          </label>
          <textarea
            id={noteId}
            className="report-form__note"
            rows={3}
            maxLength={REPORT_NOTE_MAX_LENGTH}
            value={note}
            onChange={(event) => setNote(event.target.value)}
          />
          {error ? (
            <p className="report-form__error" role="alert">
              {error}
            </p>
          ) : null}
        </form>
      }
    >
      <button type="button" className="btn" onClick={dismiss} disabled={send.isPending}>
        Cancel
      </button>
      <button type="submit" form={`${noteId}-form`} className="btn btn--primary" disabled={send.isPending}>
        {send.isPending ? 'Sending…' : 'Send'}
      </button>
    </Dialog>
  );
}

/** 'Report…' in the thread's menu: reports the whole conversation. */
export function ReportItem({ conversation }: { conversation: ConversationView }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      {/* A ThreadMenuItem (ThreadMenu.tsx), written out: that file renders this one. */}
      <button type="button" role="menuitem" className="thread-menu__item" onClick={() => setOpen(true)}>
        Report…
      </button>
      {open ? <ReportDialog conversationId={conversation._id} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/** 'Report' beside the time of a message someone else wrote. */
export function ReportMessageButton({ message }: { message: MessageView }) {
  const [open, setOpen] = useState(false);
  // The gift card's text is the app's own; the conversation can still be reported from the menu.
  if (message.mine || message.messageType === 'gift') return null;
  return (
    <>
      <button type="button" className="msg__report" onClick={() => setOpen(true)} aria-label="Report this message">
        Report
      </button>
      {open ? <ReportDialog conversationId={message.conversationId} messageId={message._id} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
