/** The assets table lives beside `companies` (companies/schema.ts): they reference each other. */
export { assets, type AssetRow } from '../companies/schema.js';
