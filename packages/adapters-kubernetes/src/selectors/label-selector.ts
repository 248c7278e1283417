// The label-selector syntax lives in core (plugins parse it too); Kubernetes code imports it here.
export { parseLabelSelector, selectorFromMatchLabels, matchesLabels, formatLabelSelector } from '@switchyard/core';
export type { LabelSelector, LabelRequirement } from '@switchyard/core';
