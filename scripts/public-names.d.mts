/** One public root name of a package: its kind and the declaration it resolves to. */
export interface PublicName {
  readonly name: string;
  readonly kind: 'value' | 'type' | 'value+type';
  /** `packages/core/src/x.ts#Name`: equal for the same object re-exported by two packages. */
  readonly target: string;
}
/** One package's root names. */
export interface PackageNames {
  readonly package: string;
  readonly dir: string;
  readonly names: readonly PublicName[];
}
export declare function workspaceRoots(root?: string): { name: string; dir: string; entry: string }[];
export declare function publicNames(root?: string): PackageNames[];
export declare function countsTable(listing: readonly PackageNames[]): string;
