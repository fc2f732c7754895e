/** A path segment decoded, or null when its percent-encoding is malformed (answered as not found). */
export function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
