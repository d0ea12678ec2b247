import { useId } from 'react';
import { MESSAGE_MAX_LENGTH } from '../../../api/contract/limits';
import './NoteField.css';

interface NoteFieldProps {
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}

/**
 * The optional note that goes with a gift: it becomes the writer's first message in the gift's
 * thread, so it has a message's limit, with a counter ('12/2000') as the settings fields have.
 */
export function NoteField({ value, onChange, disabled = false }: NoteFieldProps) {
  const id = useId();
  return (
    <div className="field note-field">
      <label htmlFor={id}>Add a note (optional)</label>
      <textarea
        id={id}
        className="input note-field__input"
        name="note"
        rows={3}
        maxLength={MESSAGE_MAX_LENGTH}
        aria-describedby={`${id}-count`}
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
      />
      <span id={`${id}-count`} className="note-field__count">
        <span aria-hidden="true">
          {value.length}/{MESSAGE_MAX_LENGTH}
        </span>
        <span className="visually-hidden">
          {value.length} of {MESSAGE_MAX_LENGTH} characters
        </span>
      </span>
    </div>
  );
}
