import { ZAccessRuleGetOutput, ZAccessRuleListOutput, ZAccessRuleResetOutput, ZAccessRuleSetOutput } from '@console/shared/dto';
import { ZAccessRuleGetInput, ZAccessRuleGroupInput, ZAccessRuleSetInput } from '@console/shared';
import { getAccessRule, listAccessRules, resetAccessRule, setAccessRule } from '../modules/access-rules/access-rule.service';
import { authedProcedure, router } from './init';

/** Access rules (Settings > Access rules, docs/access-rules.md): the hotel's and each room group's. */
export const accessRuleRouter = router({
  get: authedProcedure
    .input(ZAccessRuleGetInput)
    .output(ZAccessRuleGetOutput)
    .query(({ ctx, input }) => getAccessRule(ctx, input)),
  list: authedProcedure.output(ZAccessRuleListOutput).query(({ ctx }) => listAccessRules(ctx)),
  set: authedProcedure
    .input(ZAccessRuleSetInput)
    .output(ZAccessRuleSetOutput)
    .mutation(({ ctx, input }) => setAccessRule(ctx, input)),
  reset: authedProcedure
    .input(ZAccessRuleGroupInput)
    .output(ZAccessRuleResetOutput)
    .mutation(({ ctx, input }) => resetAccessRule(ctx, input)),
});
