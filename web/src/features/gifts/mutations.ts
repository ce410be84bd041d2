import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errors';
import { eventKeys } from '../events/queries';
import { claimGift, giveTicket, keepTicket, resendGift, takeBackGift } from './api';
import { ticketKeys } from './queries';

/** Give, re-send and take back: each says how it went and refreshes the reader's tickets
 * (and concerts: a given ticket no longer opens its concert). */
function useGiftAction<Input>(call: (input: Input) => Promise<unknown>, done: string, onDone?: () => void) {
  const { t } = useTranslation('gifts');
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      notifications.show({ color: 'green', message: t(done) });
      onDone?.();
      await queryClient.invalidateQueries({ queryKey: ticketKeys.all });
      await queryClient.invalidateQueries({ queryKey: eventKeys.all });
    },
    onError: (e) => {
      notifications.show({ color: 'red', message: errorText(e, t) });
    },
  });
}

export const useGiveTicket = (ticketId: string, onDone: () => void) =>
  useGiftAction((email: string) => giveTicket(ticketId, { email }), 'give.sent', onDone);
export const useResendGift = () => useGiftAction((giftId: string) => resendGift(giftId), 'pending.resent');
export const useKeepTicket = () => useGiftAction((ticketId: string) => keepTicket(ticketId), 'keep.done');
export const useTakeBackGift = () => useGiftAction((giftId: string) => takeBackGift(giftId), 'pending.takenBack');

/** Claim: the error stays on the page (it is the page's whole point). */
export function useClaimGift() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: claimGift,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ticketKeys.all });
      await queryClient.invalidateQueries({ queryKey: eventKeys.all });
    },
  });
}
