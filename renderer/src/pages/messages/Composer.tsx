import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { MESSAGE_MAX_LENGTH } from '../../../../api/contract/limits';
import { SendIcon } from '../../components/Icons';

/** PRODUCT.md §2: the message input starts at this height and grows with its text. */
const INPUT_MIN_HEIGHT = 38;
const INPUT_MAX_HEIGHT = 160;

/** The input grows with its text from 38px, up to a few lines, then scrolls. */
function growInput(el: HTMLTextAreaElement): void {
  el.style.height = 'auto';
  const borders = el.offsetHeight - el.clientHeight;
  el.style.height = `${Math.min(INPUT_MAX_HEIGHT, Math.max(INPUT_MIN_HEIGHT, el.scrollHeight + borders))}px`;
}

/** The message input and Send: Enter sends, Shift+Enter starts a new line. */
export function Composer({ onSend }: { onSend: (text: string) => void }) {
  const [draft, setDraft] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);
  const canSend = draft.trim().length > 0;

  function submit(event?: FormEvent) {
    event?.preventDefault();
    const text = draft.trim();
    if (!text) return;
    setDraft('');
    if (input.current) {
      input.current.style.height = '';
      input.current.focus();
    }
    onSend(text);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // An IME composition keeps its Enter.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  }

  return (
    <form className="composer" onSubmit={submit}>
      <label htmlFor="message-input" className="visually-hidden">
        Message
      </label>
      <textarea
        id="message-input"
        ref={input}
        className="composer__input"
        rows={1}
        value={draft}
        maxLength={MESSAGE_MAX_LENGTH}
        placeholder="Write a message…"
        onChange={(event) => {
          setDraft(event.target.value);
          growInput(event.target);
        }}
        onKeyDown={onKeyDown}
        enterKeyHint="send"
      />
      <button type="submit" className="btn btn--primary composer__send" disabled={!canSend} aria-label="Send">
        <SendIcon size={18} />
        <span>Send</span>
      </button>
    </form>
  );
}
