/** The one place allowed to write to the console (spec: "logged only" cases). */
export const logger = {
  warn(message: string, detail?: unknown): void {
    console.warn(`[encore] ${message}`, detail ?? '');
  },
};
