/** The subset of `patch` whose defined values differ from `current`: what a PATCH really changes. */
export function changedFields<T extends object>(current: T, patch: { [K in keyof T]?: T[K] | undefined }): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(patch) as (keyof T)[]) {
    const value = patch[key];
    if (value !== undefined && value !== current[key]) out[key] = value as T[keyof T];
  }
  return out;
}
