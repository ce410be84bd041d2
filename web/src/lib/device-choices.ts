/**
 * Two small facts this device keeps so that an account's language and theme follow it from
 * device to device: what the visitor chose while signed out (on the sign-in page, say:
 * that choice goes to the account at sign-in), and that a sign-in has just happened (the
 * moment a new device takes the account's choices).
 */
export type DeviceChoice = 'language' | 'theme';

const CHOSEN_KEY = 'encore.chosen-signed-out';
const SIGNED_IN_KEY = 'encore.just-signed-in';

function read(): DeviceChoice[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(CHOSEN_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is DeviceChoice => v === 'language' || v === 'theme') : [];
  } catch {
    return [];
  }
}

/** The visitor, signed out, chose `choice` on this device. */
export function noteChosenSignedOut(choice: DeviceChoice): void {
  try {
    localStorage.setItem(CHOSEN_KEY, JSON.stringify([...new Set([...read(), choice])]));
  } catch {
    // storage unavailable: the account's choice will win at sign-in
  }
}

/** What was chosen signed out since the last sign-in, now forgotten. */
export function takeChosenSignedOut(): Set<DeviceChoice> {
  const chosen = new Set(read());
  try {
    localStorage.removeItem(CHOSEN_KEY);
  } catch {
    // nothing kept
  }
  return chosen;
}

/** A sign-in (password, second factor, QR) just succeeded in this tab. */
export function noteSignedIn(): void {
  try {
    sessionStorage.setItem(SIGNED_IN_KEY, '1');
  } catch {
    // storage unavailable: this device keeps its own choices
  }
}

/** Whether a sign-in happened since the last call (once per sign-in). */
export function takeSignedIn(): boolean {
  try {
    const signedIn = sessionStorage.getItem(SIGNED_IN_KEY) === '1';
    sessionStorage.removeItem(SIGNED_IN_KEY);
    return signedIn;
  } catch {
    return false;
  }
}
