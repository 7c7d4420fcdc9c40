/**
 * Wire shapes the CLI prints, taken from the SDK client's own method
 * signatures so they always follow `openapi.yaml` (the SDK's types are
 * generated from it). Field names stay snake_case, exactly as on the wire.
 */
import type { PowerContextClient } from "@powercontext/sdk";

type Result<K extends keyof PowerContextClient> = PowerContextClient[K] extends (...args: never[]) => Promise<infer R>
  ? R
  : never;

/** `TopicMemoryProcessingStatus` (`get_topic_memory_processing_status`, 200). */
export type ProcessingStatus = Result<"getTopicMemoryProcessingStatus">;
/** `TopicMemoryProcessingBlock` (`get_topic_memory_processing_block`, 200). */
export type ProcessingBlock = Result<"getTopicMemoryProcessingBlock">;
/** `RetryTopicMemoryProcessingResponse` (`retry_topic_memory_processing`, 200): `{ status: "accepted", block }`. */
export type RetryReceipt = Result<"retryTopicMemoryProcessing">;
/** `Operation` (`get_operation`, 200). */
export type Operation = Result<"getOperation">;
/** `OperationPage` (`list_operations`, 200). */
export type OperationPage = Result<"listOperations">;
