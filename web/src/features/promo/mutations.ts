import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { cartKeys } from '../cart/queries';
import { eventKeys } from '../events/queries';
import { createPromoCode, deletePromoCode, enterCartPromo, removeCartPromo, updatePromoCode } from './api';
import type { PromoScope } from './api';
import type { PromoCodeInput } from './model';
import { promoKeys } from './queries';

/** A manager's changes to the codes of `scope`: each says so and refreshes every list of
 * codes (a project's list holds its concerts' codes too). Refusals stay with the form. */
export function usePromoActions(scope: PromoScope) {
  const { t } = useTranslation('promo');
  const queryClient = useQueryClient();
  const done = (key: 'added' | 'saved' | 'deleted') => async (): Promise<void> => {
    notifications.show({ color: 'green', message: t(`manage.done.${key}`) });
    await queryClient.invalidateQueries({ queryKey: promoKeys.all });
  };
  const add = useMutation({ mutationFn: (input: PromoCodeInput) => createPromoCode(scope, input), onSuccess: done('added') });
  const edit = useMutation({ mutationFn: ({ codeId, input }: { codeId: string; input: PromoCodeInput }) => updatePromoCode(codeId, input), onSuccess: done('saved') });
  const remove = useMutation({ mutationFn: deletePromoCode, onSuccess: done('deleted') });
  return { add, edit, remove };
}

/** Enter or take out the cart's code: the cart, its totals and the concerts (a code may
 * list hidden tiers) are refreshed. The server's refusal is shown by the field. */
export function useCartPromoActions() {
  const queryClient = useQueryClient();
  const refresh = async (): Promise<void> => {
    await queryClient.invalidateQueries({ queryKey: cartKeys.list });
    await queryClient.invalidateQueries({ queryKey: eventKeys.all });
  };
  const enter = useMutation({ mutationFn: enterCartPromo, onSuccess: refresh });
  const remove = useMutation({ mutationFn: removeCartPromo, onSuccess: refresh });
  return { enter, remove };
}
