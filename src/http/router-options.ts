/** Routers match paths case-sensitively, as the contracts write them (/V1/PETS is no operation). */
export const ROUTER_OPTIONS = { caseSensitive: true } as const;
