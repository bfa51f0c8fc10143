// The start form's field widgets (a number typed as text, a list a line an item, a checkbox with its hint, the
// problems under a field) and the binding that gives each field its id, test id, value and problem messages.
import type { ReactNode } from 'react';
import type { CrawlDefaults } from '../../../shared/crawler-api.ts';
import type { ListField, StartForm } from './start-form-model.ts';

/** What a part of the form needs to show and edit its fields. */
export interface FormBinding {
  form: StartForm;
  defaults: CrawlDefaults | null;
  /** useId's prefix: every field's id starts with it. */
  ids: string;
  /** Problems by field, as problemsByField gives them. */
  errors: ReadonlyMap<string, string[]>;
  set: <K extends keyof StartForm>(key: K, value: StartForm[K]) => void;
}

/** The form fields typed as numbers. */
export type NumberFieldName = {
  [K in keyof StartForm]: StartForm[K] extends string ? (K extends ListField | 'userAgent' | 'headers' | 'viewport' ? never : K) : never;
}[keyof StartForm];

interface FieldAttrs {
  id: string;
  'data-testid': string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** A field's id, test id and problem state. */
export function fieldAttrs(b: FormBinding, name: keyof StartForm): FieldAttrs {
  return {
    id: `${b.ids}-${name}`,
    'data-testid': `setting-${kebab(name)}`,
    'aria-invalid': b.errors.has(name) || undefined,
    'aria-describedby': b.errors.has(name) ? `${b.ids}-${name}-error` : undefined,
  };
}

/** The problems of a field, under it. */
export function fieldError(b: FormBinding, name: string): ReactNode {
  return <FieldError id={`${b.ids}-${name}-error`} messages={b.errors.get(name)} />;
}

/** A number field's input, bound to the form. */
export function numberInput(b: FormBinding, name: keyof StartForm & NumberFieldName): NumberInput {
  return { ...fieldAttrs(b, name), value: b.form[name], onChange: (v: string) => b.set(name, v) };
}

/** A list field (one item a line), bound to the form. */
export function linesField(b: FormBinding, name: ListField, label: string, hint: string, placeholder: string): ReactNode {
  return (
    <LinesField
      label={label}
      hint={hint}
      placeholder={placeholder}
      error={fieldError(b, name)}
      input={{ ...fieldAttrs(b, name), name, value: b.form[name], onChange: (v) => b.set(name, v) }}
    />
  );
}

interface NumberInput extends FieldAttrs {
  value: string;
  disabled?: boolean;
  onChange: (value: string) => void;
}

export function NumberField({
  label,
  hint,
  placeholder,
  error,
  input,
}: {
  label: string;
  hint: string;
  placeholder?: string;
  error: ReactNode;
  input: NumberInput;
}) {
  const { onChange, ...rest } = input;
  return (
    <label className="field" htmlFor={input.id}>
      <span className="field-label">{label}</span>
      <input
        {...rest}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
      <span className="field-hint">{hint}</span>
      {error}
    </label>
  );
}

interface ListInput extends NumberInput {
  name: string;
}

/** A textarea taking one item a line (hosts, patterns, parameter names). */
function LinesField({
  label,
  hint,
  placeholder,
  error,
  input,
}: {
  label: string;
  hint: string;
  placeholder: string;
  error: ReactNode;
  input: ListInput;
}) {
  const { onChange, ...rest } = input;
  const rows = Math.min(8, Math.max(2, input.value.split('\n').length));
  return (
    <label className="field field-wide" htmlFor={input.id}>
      <span className="field-label">{label}</span>
      <textarea
        {...rest}
        className="list-input"
        rows={rows}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        placeholder={placeholder}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
      <span className="field-hint">{hint}</span>
      {error}
    </label>
  );
}

interface CheckInput extends FieldAttrs {
  checked: boolean;
  onChange: (checked: boolean) => void;
}

export function Check({ label, hint, error, input }: { label: string; hint: string; error?: ReactNode; input: CheckInput }) {
  const { onChange, ...rest } = input;
  return (
    <>
      <label className="check" htmlFor={input.id}>
        <input {...rest} type="checkbox" onChange={(e) => onChange(e.currentTarget.checked)} />
        <span>
          <span className="check-label">{label}</span>
          <span className="field-hint">{hint}</span>
        </span>
      </label>
      {error}
    </>
  );
}

function FieldError({ id, messages }: { id: string; messages: string[] | undefined }) {
  if (!messages?.length) return null;
  return (
    <span className="field-error" id={id} role="alert">
      {messages.map((m, i) => (
        <span key={i}>{m}</span>
      ))}
    </span>
  );
}
