// The codes of two-factor sign-in: TOTP (RFC 6238: SHA-1, 30-second steps, 6 digits) through
// otplib's functional API, the set-up's QR code as SVG, and the recovery codes.
import { createHash, randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { totpDigits } from '../../shared/two-factor.ts';

/** One step either side of now: a phone's clock a little off, or a code typed as it turned. */
const TOLERANCE_SECONDS = 30;

export interface TotpSetup {
  secret: string;
  otpauth_uri: string;
  /** The URI as a QR code, an SVG document (shown as an image, never as markup). */
  qr_svg: string;
}

/** `issuer`: what authenticator apps list the account under, the site's name. */
export async function newTotpSetup(accountName: string, issuer: string): Promise<TotpSetup> {
  const secret = generateSecret();
  const uri = generateURI({ issuer, label: accountName, secret });
  return { secret, otpauth_uri: uri, qr_svg: await QRCode.toString(uri, { type: 'svg', margin: 2 }) };
}

/**
 * The time step the typed code belongs to when it is the secret's code now or one step either
 * side, and later than `afterStep` (a step whose code was already used is refused: no replay).
 */
export async function totpStep(secret: string, typed: string, afterStep = 0): Promise<number | undefined> {
  const token = totpDigits(typed);
  if (!token) return undefined;
  const result = await verify({ secret, token, epochTolerance: TOLERANCE_SECONDS, afterTimeStep: afterStep });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}

// No 0/o, 1/l/i: a code read off paper is typed right.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_LENGTH = 16; // 16 of 31 symbols: 79 bits, beyond guessing, so a plain hash suffices

/** A new recovery code, 'xxxx-xxxx-xxxx-xxxx'. */
export function newRecoveryCode(): string {
  const symbols = Array.from({ length: RECOVERY_LENGTH }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return symbols.join('').replace(/(.{4})(?=.)/g, '$1-');
}

/** What is stored of a recovery code: the SHA-256 of its symbols, however it was typed. */
export function recoveryCodeHash(typed: string): string {
  const symbols = typed.toLowerCase().replace(/[^a-z0-9]/g, '');
  return createHash('sha256').update(symbols).digest('base64url');
}
