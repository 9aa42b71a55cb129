import { ValidationError, type FieldProblem } from '../errors/ValidationError.js';
import { isPetEventType, PET_EVENT_TYPES, type PetEventType } from '../events/PetEvent.js';
import { codePointCount, displayedTextProblem } from '../input/displayedText.js';

/** The settings of an endpoint an operator chooses, validated; an absent property was not given. */
export interface WebhookSettings {
  url?: string;
  eventTypes?: PetEventType[];
  description?: string;
  disabled?: boolean;
}

/** The longest endpoint URL, in UTF-16 code units. */
export const WEBHOOK_URL_MAX = 2048;
/** The longest endpoint description, in Unicode code points; it may be empty. */
export const WEBHOOK_DESCRIPTION_MAX = 200;

function urlProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > WEBHOOK_URL_MAX)
    return `url must be an absolute URL of at most ${WEBHOOK_URL_MAX} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'url must be an absolute URL (https://...)';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'url must be an https URL';
  if (url.username !== '' || url.password !== '') return 'url must not carry a user name or password';
  if (url.hash !== '') return 'url must not have a fragment (#...)';
  return null;
}

/**
 * The settings of a new endpoint (`create`: `url` required, `eventTypes` default every type) or of a change (at least
 * one field); unknown fields, wrong types and bad values are a ValidationError listing each. Whether the URL is a
 * safe target is the WebhookTargets port's to say.
 */
export function parseWebhookSettings(input: unknown, mode: 'create' | 'update'): WebhookSettings {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw ValidationError.of('body', 'The body must be a JSON object');
  const body = input as Record<string, unknown>;
  const known = mode === 'create' ? ['url', 'eventTypes', 'description'] : ['url', 'eventTypes', 'description', 'disabled'];
  const problems: FieldProblem[] = [];
  const settings: WebhookSettings = {};
  for (const field of Object.keys(body)) {
    if (!known.includes(field)) problems.push({ field, message: `${field} is not a setting of an endpoint (use ${known.join(', ')})` });
  }
  if (mode === 'create' && body['url'] === undefined) problems.push({ field: 'url', message: 'url is required' });
  if (mode === 'update' && Object.keys(body).length === 0) problems.push({ field: 'body', message: 'Give at least one setting to change' });
  if (body['url'] !== undefined) {
    const problem = urlProblem(body['url']);
    if (problem) problems.push({ field: 'url', message: problem });
    else settings.url = new URL(body['url'] as string).href;
  }
  const { eventTypes, description, disabled } = body;
  if (eventTypes !== undefined) {
    if (!Array.isArray(eventTypes) || eventTypes.length === 0 || !eventTypes.every(isPetEventType) || new Set(eventTypes).size !== eventTypes.length)
      problems.push({ field: 'eventTypes', message: `eventTypes must be a non-empty list of distinct event types: ${PET_EVENT_TYPES.join(', ')}` });
    else settings.eventTypes = [...eventTypes];
  } else if (mode === 'create') settings.eventTypes = [...PET_EVENT_TYPES];
  if (description !== undefined) {
    const problem =
      typeof description !== 'string' || codePointCount(description) > WEBHOOK_DESCRIPTION_MAX
        ? `description must be text of at most ${WEBHOOK_DESCRIPTION_MAX} characters`
        : displayedTextProblem('description', description);
    if (problem) problems.push({ field: 'description', message: problem });
    else settings.description = description as string;
  }
  if (disabled !== undefined) {
    if (typeof disabled !== 'boolean') problems.push({ field: 'disabled', message: 'disabled must be true or false' });
    else settings.disabled = disabled;
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return settings;
}
