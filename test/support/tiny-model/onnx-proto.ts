/**
 * The part of onnx.proto (https://github.com/onnx/onnx/blob/main/onnx/onnx.proto) needed to
 * write a small model: field numbers and types are copied from it, nothing else.
 */
import protobuf from "protobufjs";

const ONNX_SUBSET = `
syntax = "proto2";
package onnx;
message AttributeProto {
  optional string name = 1;
  optional float f = 2;
  optional int64 i = 3;
  optional bytes s = 4;
  repeated int64 ints = 8;
  optional int32 type = 20;
}
message ValueInfoProto {
  optional string name = 1;
  optional TypeProto type = 2;
}
message NodeProto {
  repeated string input = 1;
  repeated string output = 2;
  optional string name = 3;
  optional string op_type = 4;
  repeated AttributeProto attribute = 5;
  optional string domain = 7;
}
message ModelProto {
  optional int64 ir_version = 1;
  optional string producer_name = 2;
  optional GraphProto graph = 7;
  repeated OperatorSetIdProto opset_import = 8;
}
message GraphProto {
  repeated NodeProto node = 1;
  optional string name = 2;
  repeated TensorProto initializer = 5;
  repeated ValueInfoProto input = 11;
  repeated ValueInfoProto output = 12;
}
message TensorProto {
  repeated int64 dims = 1;
  optional int32 data_type = 2;
  optional string name = 8;
  optional bytes raw_data = 9;
}
message TensorShapeProto {
  message Dimension {
    oneof value {
      int64 dim_value = 1;
      string dim_param = 2;
    }
  }
  repeated Dimension dim = 1;
}
message TypeProto {
  message Tensor {
    optional int32 elem_type = 1;
    optional TensorShapeProto shape = 2;
  }
  oneof value {
    Tensor tensor_type = 1;
  }
}
message OperatorSetIdProto {
  optional string domain = 1;
  optional int64 version = 2;
}
`;

/** ONNX element types used here. */
export const ONNX_FLOAT = 1;
export const ONNX_INT64 = 7;
/** AttributeProto.type for an integer attribute. */
export const ONNX_ATTRIBUTE_INT = 2;

/** The ModelProto message type, for `encode(fromObject(...))`. */
export const ModelProto = protobuf.parse(ONNX_SUBSET).root.lookupType("onnx.ModelProto");
