export {
  type AttributeValue,
  activeTracer,
  type Exception,
  exceptionOf,
  noopTracer,
  type SpanLike,
  type Tracer,
  useTracer,
} from "./tracer.ts"
