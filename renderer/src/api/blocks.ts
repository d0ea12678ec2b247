import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BlockView } from '../../../api/contract/blocks';
import { call } from './client';
import { conversationKeys } from './conversations';

export type { BlockView };

/** The people the user blocked, newest first (as labels: never an anonymous giver's identity). */
export function listBlocks(signal?: AbortSignal) {
  return call('GET /api/blocks', { signal });
}

/** Blocks the other member of a conversation the user is in; the server works out who that is. */
export function blockConversation(conversationId: string) {
  return call('POST /api/blocks', { body: { conversationId } });
}

export function unblock(blockId: string) {
  return call('DELETE /api/blocks/:id', { params: { id: blockId } });
}

// ---- the query cache ----------------------------------------------------------------------------

export const blockKeys = {
  all: ['blocks'] as const,
};

export function useBlocksQuery() {
  return useQuery({ queryKey: blockKeys.all, queryFn: ({ signal }) => listBlocks(signal) });
}

export function useBlockConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (conversationId: string) => blockConversation(conversationId),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: blockKeys.all });
      void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() });
    },
  });
}

export function useUnblock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (blockId: string) => unblock(blockId),
    onSuccess: (_data, blockId) => {
      queryClient.setQueryData<BlockView[]>(blockKeys.all, (list) => list?.filter((b) => b._id !== blockId));
      void queryClient.invalidateQueries({ queryKey: blockKeys.all });
    },
  });
}
