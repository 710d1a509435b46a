/** C0 and C1 control characters and DEL: refused in every identifier a client sends (sites, pages, ids, keys). */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
