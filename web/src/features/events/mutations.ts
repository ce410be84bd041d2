import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errors';
import { cartKeys } from '../cart/queries';
import { addMarker, askDoorsReminder, cancelDoorsReminder, cancelEvent, createEvent, createTier, deleteEvent, deleteMarker, deleteTier, editMarker, endShow, publishEvent, rotateStreamKey, updateEvent, updateTier, uploadEventImage } from './api';
import { addEventToCart } from '../cart/api';
import type { CartAddition } from '../cart/api';
import type { EventFormResult } from './components/event-form-modal';
import type { EncoreEvent, LiveStatus, ManagedEvent, MarkerChanges, MarkerInput, NewTierInput, TierChanges } from './model';
import { eventKeys } from './queries';

function useEventsError(): (error: unknown) => void {
  const { t } = useTranslation('events');
  return (error) => {
    notifications.show({ color: 'red', message: errorText(error, t) });
  };
}

/** Concerts and the carts that hold them (a price, a cancellation or a deletion shows in both). */
async function refreshEventsAndCart(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: eventKeys.all });
  await queryClient.invalidateQueries({ queryKey: cartKeys.list });
}

/** POST /cart/{id} (of one of its tiers, else its default): says so, and refreshes the
 * cart and the concerts either way. */
export function useAddEventToCart(event: EncoreEvent, tierId?: string) {
  const { t } = useTranslation('events');
  const queryClient = useQueryClient();
  const onError = useEventsError();
  return useMutation({
    // `amount`: minor units named for a pay-what-you-want tier (none: its suggested price);
    // `quantity`: how many tickets (none: one).
    mutationFn: (addition: Omit<CartAddition, 'tierId'>) => addEventToCart(event.id, { ...addition, tierId }),
    onSuccess: () => {
      notifications.show({ color: 'green', message: t('addedToCart', { title: event.title }) });
    },
    onError,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: cartKeys.list });
      await queryClient.invalidateQueries({ queryKey: eventKeys.all });
    },
  });
}

/** "Remind me when doors open" on (`true`) or off: the concert's answer shows at once, and
 * every list and page of concerts refreshes. */
export function useDoorsReminder(eventId: string) {
  const queryClient = useQueryClient();
  const onError = useEventsError();
  return useMutation({
    mutationFn: (wanted: boolean) => (wanted ? askDoorsReminder(eventId) : cancelDoorsReminder(eventId)),
    onSuccess: (event: EncoreEvent) => {
      queryClient.setQueryData(eventKeys.detail(eventId), event);
    },
    onError,
    onSettled: () => queryClient.invalidateQueries({ queryKey: eventKeys.all }),
  });
}

interface SaveEventOptions {
  /** The concert being edited, or 'new'. */
  editing: ManagedEvent | 'new' | null;
  /** A new concert was created but its image failed: a second try must edit it. */
  onCreatedWithoutImage: (saved: ManagedEvent) => void;
  onSaved: () => void;
}

/** Create or update a concert, then upload its image if one was picked. */
export function useSaveEvent({ editing, onCreatedWithoutImage, onSaved }: SaveEventOptions) {
  const { t } = useTranslation('events');
  const queryClient = useQueryClient();
  const onError = useEventsError();
  return useMutation({
    mutationFn: async ({ input, image }: EventFormResult) => {
      const saved = editing && editing !== 'new' ? await updateEvent(editing.id, input) : await createEvent(input);
      if (image) {
        try {
          await uploadEventImage(saved.id, image);
        } catch (error) {
          // The concert exists now: a second try edits it instead of creating another one.
          if (editing === 'new') onCreatedWithoutImage({ ...saved, ticketsSold: 0, revenue: 0 });
          await refreshEventsAndCart(queryClient);
          throw error;
        }
      }
      return saved;
    },
    onSuccess: async () => {
      notifications.show({ color: 'green', message: t('manage.saved') });
      onSaved();
      await refreshEventsAndCart(queryClient);
    },
    onError,
  });
}

export type EventAction = 'publish' | 'cancel' | 'delete';

/** Publish, cancel or delete a concert. */
export function useEventAction(onDone: () => void) {
  const { t } = useTranslation('events');
  const queryClient = useQueryClient();
  const onError = useEventsError();
  return useMutation({
    mutationFn: ({ kind, event }: { kind: EventAction; event: ManagedEvent }) =>
      kind === 'publish' ? publishEvent(event.id) : kind === 'cancel' ? cancelEvent(event.id) : deleteEvent(event.id),
    onSuccess: async (_result, { kind }) => {
      notifications.show({ color: 'green', message: t(`manage.done.${kind}`) });
      onDone();
      await refreshEventsAndCart(queryClient);
    },
    onError,
  });
}

/** A new stream key: the answer holds the key this once (the server keeps only its hash). */
export function useRotateStreamKey(eventId: string, onRotated: (streamKey: string | null) => void) {
  const { t } = useTranslation('events');
  const queryClient = useQueryClient();
  const onError = useEventsError();
  return useMutation({
    mutationFn: () => rotateStreamKey(eventId),
    onSuccess: ({ streamKey, ...info }) => {
      onRotated(streamKey ?? null);
      queryClient.setQueryData(eventKeys.streamKey(eventId), info);
      notifications.show({ color: 'green', message: t('manage.keyRotated') });
    },
    onError,
  });
}

/** End the show: stores the new live status and refreshes the managed list. */
export function useEndShow(eventId: string, onEnded: (status: LiveStatus) => void) {
  const { t } = useTranslation('events');
  const queryClient = useQueryClient();
  const onError = useEventsError();
  return useMutation({
    mutationFn: () => endShow(eventId),
    onSuccess: async (status) => {
      queryClient.setQueryData(eventKeys.live(eventId), status);
      onEnded(status);
      notifications.show({ color: 'green', message: t('manage.live.endedNotice') });
      await queryClient.invalidateQueries({ queryKey: eventKeys.manage });
    },
    onError,
  });
}

/** The show's song titles by hand: add (at the live position now), edit, delete. Each
 * refreshes the list and the live status (its `nowPlaying` may be the marker changed). */
export function useMarkerActions(eventId: string) {
  const queryClient = useQueryClient();
  const onError = useEventsError();
  const refresh = async (): Promise<void> => {
    await queryClient.invalidateQueries({ queryKey: eventKeys.markers(eventId) });
    await queryClient.invalidateQueries({ queryKey: eventKeys.live(eventId) });
  };
  const add = useMutation({ mutationFn: (input: MarkerInput) => addMarker(eventId, input), onSuccess: refresh, onError });
  const edit = useMutation({
    mutationFn: ({ markerId, changes }: { markerId: string; changes: MarkerChanges }) => editMarker(eventId, markerId, changes),
    onSuccess: refresh,
    onError,
  });
  const remove = useMutation({ mutationFn: (markerId: string) => deleteMarker(eventId, markerId), onSuccess: refresh, onError });
  return { add, edit, remove };
}

/** A concert's ticket tiers: add, change, delete. Each says so and refreshes the concert (its
 * price is its default tier's), its tiers, the lists and the carts that hold it. A refusal
 * (409, 422) stays with the caller: the tier form shows it beside what was typed, and a
 * deletion's shows as the app's other refusals do. */
export function useTierActions(eventId: string) {
  const { t } = useTranslation('events');
  const queryClient = useQueryClient();
  const onError = useEventsError();
  const done = (key: 'added' | 'saved' | 'deleted') => async (): Promise<void> => {
    notifications.show({ color: 'green', message: t(`manage.tiers.done.${key}`) });
    // Every concert query (its tiers among them, under the same prefix) and the carts.
    await refreshEventsAndCart(queryClient);
  };
  const add = useMutation({ mutationFn: (input: NewTierInput) => createTier(eventId, input), onSuccess: done('added') });
  const edit = useMutation({
    mutationFn: ({ tierId, changes }: { tierId: string; changes: TierChanges }) => updateTier(eventId, tierId, changes),
    onSuccess: done('saved'),
  });
  const remove = useMutation({ mutationFn: (tierId: string) => deleteTier(eventId, tierId), onSuccess: done('deleted'), onError });
  return { add, edit, remove };
}
