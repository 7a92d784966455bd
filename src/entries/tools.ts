// durable-agent/tools: the harness's safety checks and the permission engine, to test your rules.
export { checkShellCommand } from '../toolkit/tools/shell/check-shell-command';
export { evaluatePermission, type PermissionRequest } from '../permissions';
export { callCost } from '../common/pricing';
