import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AddressRequest, AddressResponse } from '../../../api/contract/orders';
import { call } from './client';

export { ADDRESS_SAVE_ERROR, ORDERS_ERROR } from '../../../api/contract/texts';
export type {
  AddressRequest,
  AddressView,
  GiverOrderStatus,
  OrderStatus,
  ReceivedOrderView,
  SentOrderView,
} from '../../../api/contract/orders';

/** The signed-in user's own shipping address (`address: null` until one is saved). */
export function getAddress(signal?: AbortSignal) {
  return call('GET /api/users/me/address', { signal });
}

export function saveAddress(address: AddressRequest) {
  return call('PUT /api/users/me/address', { body: address });
}

export function removeAddress() {
  return call('DELETE /api/users/me/address', {});
}

/** The user's item orders: received (with the item and the status) and sent (the status only). */
export function listOrders(signal?: AbortSignal) {
  return call('GET /api/orders', { signal });
}

// ---- the query cache ----------------------------------------------------------------------------

export const orderKeys = {
  all: ['orders'] as const,
  list: () => [...orderKeys.all, 'list'] as const,
  address: () => [...orderKeys.all, 'address'] as const,
};

export function useAddressQuery() {
  return useQuery({ queryKey: orderKeys.address(), queryFn: ({ signal }) => getAddress(signal) });
}

export function useOrdersQuery() {
  return useQuery({ queryKey: orderKeys.list(), queryFn: ({ signal }) => listOrders(signal) });
}

/** Saving the address may place waiting orders: the orders are read again. */
export function useSaveAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAddress,
    onSuccess: (answer) => {
      queryClient.setQueryData<AddressResponse>(orderKeys.address(), { address: answer.address });
      void queryClient.invalidateQueries({ queryKey: orderKeys.list() });
    },
  });
}

export function useRemoveAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeAddress,
    onSuccess: () => queryClient.setQueryData<AddressResponse>(orderKeys.address(), { address: null }),
  });
}
