// Foundation figures (filled in by the foundation issue).
export async function run(): Promise<void> {}
