/**
 * Which tools the model sees: the groups, the tools they make visible, and the prompt that names
 * them.
 */
export { changeGroups, noteGroups, resetEquippedTools } from './equip-groups';
export { toolGroupsPrompt } from './tool-groups-prompt';
export { groupsOf, metaToolEnabled, routeCall, specOf, visibleTools } from './tool-visibility';
