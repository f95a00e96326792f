/**
 * rjsf's validator interface over the interpreting validator (json-schema.ts). rjsf asks it which
 * branch of an `if` a pet's answers take (so the form shows the questions that branch asks) and,
 * were a form to validate through rjsf, for errors; the forms here validate through
 * FormStep's validateAnswers, with the same interpreter and one message per field.
 */
import {
  JUNK_OPTION_ID,
  type CustomValidator,
  type ErrorTransformer,
  type RJSFSchema,
  type RJSFValidationError,
  type UiSchema,
  type ValidationData,
  type ValidatorType,
  createErrorHandler,
  toErrorSchema,
  unwrapErrorHandler,
  validationDataMerge,
} from '@rjsf/utils';

import { type SchemaError, isValid, validate } from './json-schema';

type Answers = Record<string, unknown>;

function toRjsf(errors: SchemaError[]): RJSFValidationError[] {
  return errors.map((e) => {
    const missing = typeof e.params.missingProperty === 'string' ? `/${e.params.missingProperty}` : '';
    const property = `${e.instancePath}${missing}`.replace(/\//g, '.');
    return { name: e.keyword, property, message: e.keyword, params: e.params, stack: `${property} ${e.keyword}`.trim(), schemaPath: e.schemaPath };
  });
}

export class SchemaValidator implements ValidatorType<Answers, RJSFSchema> {
  rawValidation<Result = SchemaError>(schema: RJSFSchema, formData?: Answers): { errors?: Result[]; validationError?: Error } {
    const errors = validate(schema, formData);
    return { errors: errors.length > 0 ? (errors as Result[]) : undefined };
  }

  validateFormData(
    formData: Answers | undefined,
    schema: RJSFSchema,
    customValidate?: CustomValidator<Answers, RJSFSchema>,
    transformErrors?: ErrorTransformer<Answers, RJSFSchema>,
    uiSchema?: UiSchema<Answers, RJSFSchema>,
  ): ValidationData<Answers> {
    let errors = toRjsf(validate(schema, formData));
    if (transformErrors) errors = transformErrors(errors, uiSchema);
    const data: ValidationData<Answers> = { errors, errorSchema: toErrorSchema<Answers>(errors) };
    if (!customValidate) return data;
    const handler = customValidate(formData, createErrorHandler<Answers>(formData ?? {}), uiSchema);
    return validationDataMerge<Answers>(data, unwrapErrorHandler<Answers>(handler));
  }

  isValid(schema: RJSFSchema, formData: Answers | undefined): boolean {
    if (schema.$id === JUNK_OPTION_ID) return false;
    return isValid(schema, formData);
  }
}

/** One validator serves every form: it holds nothing of any schema. */
export const schemaValidator = new SchemaValidator();
