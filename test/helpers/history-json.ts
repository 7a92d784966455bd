import { dirname } from 'node:path';
import * as proto from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root';

type History = proto.temporal.api.history.v1.IHistory;

interface ProtoJson {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options?: { ignoreUnknownFields?: boolean }): unknown;
}

/*
 * historyToJSON/historyFromJSON of @temporalio/common throw "type must be a Type" in this install:
 * npm gave @temporalio/common and @temporalio/proto separate copies of protobufjs (it cannot
 * hoist them next to grpc's protobufjs 7), and the ProtoJSON helpers of one copy reject the
 * types of another. These two use the copy that built Temporal's types.
 */
const protoJson = require(
  require.resolve('protobufjs/ext/protojson', { paths: [dirname(require.resolve('@temporalio/proto'))] }),
) as ProtoJson;
const historyType = (patchProtobufRoot(proto as unknown as Record<string, unknown>) as unknown as { lookupType(name: string): unknown })
  .lookupType('temporal.api.history.v1.History');

/** The history as ProtoJSON text, the format of `temporal workflow show --output json` and the Web UI download. */
export function historyToJson(history: History): string {
  const message = proto.temporal.api.history.v1.History.fromObject(history);
  return JSON.stringify(protoJson.toJson(historyType, message), null, 2);
}

/** A History for Worker.runReplayHistory from ProtoJSON (as parsed by JSON.parse). */
export function historyFromJson(json: unknown): History {
  return protoJson.fromJson(historyType, json, { ignoreUnknownFields: true }) as History;
}
