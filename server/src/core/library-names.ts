// Python distribution names (what a manifest pins) and import names (what code imports) are different
// namespaces. Distribution names compare after PEP 503 normalisation.

export function normalizeDistributionName(name: string): string {
  return name.trim().toLowerCase().replace(/[-_.]+/g, '-');
}
