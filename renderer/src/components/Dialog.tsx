import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import './Dialog.css';

interface DialogProps {
  /** The main text; it also names the dialog for assistive technology. */
  message: ReactNode;
  title?: ReactNode;
  /** Anything more between the message and the actions (a form, a list). */
  body?: ReactNode;
  /** Shown above the title (a picture, a carousel). */
  media?: ReactNode;
  /** Extra class for the dialog box (a wider variant, for example). */
  className?: string;
  /** Called on Escape and on a click outside the dialog. */
  onDismiss: () => void;
  children: ReactNode;
}

/**
 * Modal dialog on the native `<dialog>` (`showModal`): the browser keeps focus inside, makes the
 * page behind it inert and turns Escape into a `cancel` event, which the owner answers through
 * `onDismiss` (a busy dialog stays). It is open while it is rendered; focus returns on close.
 */
export function Dialog({ message, title, body, media, className, onDismiss, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const messageId = useId();
  const dismissRef = useRef(onDismiss);
  useLayoutEffect(() => {
    dismissRef.current = onDismiss;
  });

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    let unmounted = false;
    const open = () => {
      if (!dialog.open) dialog.showModal();
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus({ preventScroll: true });
    };
    const onCancel = (event: Event) => {
      event.preventDefault();
      dismissRef.current();
    };
    // The browser may close it anyway (Chrome does on a repeated Escape): the owner decides, and
    // a dialog that is still rendered afterwards opens again.
    const onClose = () => {
      if (unmounted) return;
      dismissRef.current();
      window.requestAnimationFrame(() => {
        if (!unmounted) open();
      });
    };
    open();
    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('close', onClose);
    return () => {
      unmounted = true;
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('close', onClose);
      if (dialog.open) dialog.close();
      previous?.focus({ preventScroll: true });
    };
  }, []);

  return createPortal(
    <dialog
      ref={ref}
      className="dialog-layer"
      aria-labelledby={title ? titleId : messageId}
      aria-describedby={title ? messageId : undefined}
      onMouseDown={(event) => {
        // The layer itself, around the box, is the backdrop.
        if (event.target === event.currentTarget) onDismiss();
      }}
    >
      <div className={className ? `dialog ${className}` : 'dialog'}>
        {media}
        {title ? (
          <h2 id={titleId} className="dialog__title">
            {title}
          </h2>
        ) : null}
        <p id={messageId} className="dialog__message">
          {message}
        </p>
        {body ? <div className="dialog__body">{body}</div> : null}
        <div className="dialog__actions">{children}</div>
      </div>
    </dialog>,
    document.body,
  );
}
