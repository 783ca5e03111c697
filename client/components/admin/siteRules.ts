// The Settings tab's checks before it saves (the server checks again): shared/site-settings.ts's
// limits and messages.
import { EMAIL_MAX, EMAIL_MESSAGE, isValidEmail } from '../../../shared/accounts.ts';
import {
  SITE_DESCRIPTION_LENGTH_MESSAGE, SITE_DESCRIPTION_MAX, SITE_NAME_LENGTH_MESSAGE, SITE_NAME_MAX,
  SITE_NAME_REQUIRED_MESSAGE, SITE_TAGLINE_LENGTH_MESSAGE, SITE_TAGLINE_MAX,
} from '../../../shared/site-settings.ts';
import { lineLength } from '../../../shared/text.ts';
import type { RegistrationMode } from '../../types.ts';

export interface SiteFields {
  name: string;
  tagline: string;
  description: string;
  contact_email: string;
  registration: RegistrationMode;
}

export function validateSite(fields: SiteFields): Partial<Record<keyof SiteFields, string>> {
  const errors: Partial<Record<keyof SiteFields, string>> = {};
  const name = lineLength(fields.name);
  if (name === 0) errors.name = SITE_NAME_REQUIRED_MESSAGE;
  else if (name > SITE_NAME_MAX) errors.name = SITE_NAME_LENGTH_MESSAGE;
  if (lineLength(fields.tagline) > SITE_TAGLINE_MAX) errors.tagline = SITE_TAGLINE_LENGTH_MESSAGE;
  if (lineLength(fields.description) > SITE_DESCRIPTION_MAX) errors.description = SITE_DESCRIPTION_LENGTH_MESSAGE;
  const email = fields.contact_email.trim();
  if (email && (email.length > EMAIL_MAX || !isValidEmail(email))) errors.contact_email = EMAIL_MESSAGE;
  return errors;
}

/** What each mode means, as the Settings tab offers it. */
export const REGISTRATION_CHOICES: ReadonlyArray<{ value: RegistrationMode; label: string }> = [
  { value: 'open', label: 'Open: anyone may register' },
  { value: 'approval', label: 'Approval: an admin approves each new account' },
  { value: 'invite', label: 'Invitation: only with an invitation link' },
  { value: 'closed', label: 'Closed: nobody may register' },
];
