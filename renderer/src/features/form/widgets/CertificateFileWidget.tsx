/**
 * The rehoming certificate upload (journey.md §1: pet details taken from a rehoming
 * certificate): a PDF, PNG or JPEG read in the browser as a data URL with its file name,
 * `data:<type>;name=<file>;base64,<bytes>`. The question set's schema checks the type and the
 * size here and on the server; the server keeps it encrypted and has it scanned when the cover
 * is activated.
 */
import type { WidgetProps } from '@rjsf/utils';
import { useContext, useState } from 'react';

import { text } from '@/shared/copy';
import { CopyContext, describedBy, useFieldError } from '../field-errors';
import '../form.css';

/** The file's name as the data URL carries it: no `;`, `,`, `/` or `\`, at most 120 characters. */
export function safeName(name: string): string {
  const cleaned = name.replace(/[;,/\\]/g, '_').trim();
  return (cleaned.length > 0 ? cleaned : 'certificate').slice(0, 120);
}

/** `data:image/png;base64,...` → `data:image/png;name=cert.png;base64,...`. */
export function withName(dataUrl: string, name: string): string {
  const at = dataUrl.indexOf(';base64,');
  if (!dataUrl.startsWith('data:') || at < 0) return dataUrl;
  return `${dataUrl.slice(0, at)};name=${safeName(name)}${dataUrl.slice(at)}`;
}

/** The file name inside such a data URL, if it has one. */
export function nameOf(dataUrl: unknown): string | null {
  if (typeof dataUrl !== 'string') return null;
  const match = /^data:[^;,]*;name=([^;,]*);base64,/.exec(dataUrl);
  return match ? match[1] : null;
}

export function CertificateFileWidget({ id, value, onChange, onBlur, uiSchema, disabled, readonly }: WidgetProps) {
  const copy = useContext(CopyContext);
  const error = useFieldError(id);
  const hasHelp = typeof uiSchema?.['ui:help'] === 'string';
  const [reading, setReading] = useState(false);
  const chosen = nameOf(value);
  return (
    <div className="file-field">
      <input
        id={id}
        name={id}
        type="file"
        className="file-field__input"
        accept="application/pdf,image/png,image/jpeg,.pdf,.png,.jpg,.jpeg"
        disabled={disabled || readonly}
        aria-invalid={error ? true : undefined}
        aria-describedby={[describedBy(id, Boolean(error), hasHelp), chosen ? `${id}__chosen` : null].filter(Boolean).join(' ') || undefined}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (!file) {
            onChange(undefined);
            return;
          }
          setReading(true);
          const reader = new FileReader();
          reader.onload = () => {
            setReading(false);
            onChange(typeof reader.result === 'string' ? withName(reader.result, file.name) : undefined);
          };
          reader.onerror = () => {
            setReading(false);
            onChange(undefined);
          };
          reader.readAsDataURL(file);
        }}
        onBlur={() => onBlur(id, value)}
      />
      {chosen && !reading && (
        <p id={`${id}__chosen`} className="file-field__chosen">
          {text(copy, 'rehoming.certificate.chosen', { name: chosen })}
        </p>
      )}
    </div>
  );
}
