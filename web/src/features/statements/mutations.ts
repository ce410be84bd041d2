import { useMutation, useQueryClient } from '@tanstack/react-query';
import { recordPayout, saveBankDetails, setPlatformFee, startOnboarding } from './api';
import type { BankDetailsInput, PlatformFee, PayoutRequest } from './api';
import { statementKeys } from './queries';

/** PUT a project's platform fee (null: the operator's); every statement is read again (they
 * are made with the fee in force when read). The refusal (422) stays on the mutation. */
export function useSetPlatformFee(projectId: string, onSaved: (fee: PlatformFee) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (percent: string | null) => setPlatformFee(projectId, percent),
    onSuccess: async (fee) => {
      onSaved(fee);
      await queryClient.invalidateQueries({ queryKey: statementKeys.all });
    },
  });
}

/** POST a payout against one of a project's statements (staff); every statement is read
 * again (what is paid out and owed, the month's payouts, the operator's lines). The refusal
 * (409, 422) stays on the mutation. */
export function useRecordPayout(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payout: PayoutRequest) => recordPayout(projectId, payout),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: statementKeys.all });
    },
  });
}

/** POST the project's onboarding: the answer's link is where the artist goes next (Stripe). */
export function useStartOnboarding(projectId: string) {
  return useMutation({ mutationFn: () => startOnboarding(projectId) });
}

/** PUT the project's bank details; the saved details (masked as the reader may see them)
 * replace the cached ones. The refusal (422) stays on the mutation. */
export function useSaveBankDetails(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (details: BankDetailsInput) => saveBankDetails(projectId, details),
    onSuccess: (saved) => {
      queryClient.setQueryData(statementKeys.bank(projectId), saved);
    },
  });
}
