import { PRODUCT_SKILLS, ephemeralSkills } from '@service/adapter-utils';

/** The product skill, written per run to a temp directory passed with `--skill`. */
export { PRODUCT_SKILLS };

/** Nothing to write: the user's ~/.pi/agent/skills stay untouched. */
export const { listSkills, syncSkills } = ephemeralSkills('vendor_f_local');
