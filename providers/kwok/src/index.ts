// Placeholder until this package's issue lands; see DESIGN.md.
export {};
