/**
 * Device classes, a closed list. desktop, mobile and tablet are issue 20's; tv and console exist because smart
 * TVs and game consoles browse too and are neither of the three.
 */
export const DEVICE_CLASSES = ['desktop', 'mobile', 'tablet', 'tv', 'console'] as const;

export type DeviceClass = (typeof DEVICE_CLASSES)[number];

export function isDeviceClass(value: string): value is DeviceClass {
  return (DEVICE_CLASSES as readonly string[]).includes(value);
}
