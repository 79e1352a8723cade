/**
 * The node as a chain of sans-IO stages. {@link net.hopwise.overlay.node.NodeStack} builds the chain
 * and is the node's API towards its driver: the Netty node in the parent package runs every stage as a
 * named handler of its channel pipeline, the simulator and the virtual-time tests call the same stages
 * directly. Either way it has three inputs (a datagram arrived, time passed, the application called)
 * and one output interface, {@link net.hopwise.overlay.node.NodeOutput}.
 *
 * <p>The stages, in traffic order: {@code FrameStage} ({@code frame}: header, sender and address
 * checks, and the reused {@link net.hopwise.overlay.spi.Frame} each datagram travels in),
 * {@code LinkStage} ({@code link}: hellos, liveness, where a neighbour is), {@code RoutingStage}
 * ({@code routing}: link-state flooding and records, routes, through the router of
 * {@code net.hopwise.overlay.routing}), {@code ReliableLinkStage} ({@code reliable-link}), {@code
 * RealTimeStage} ({@code real-time}), {@code ForwardingStage} ({@code forwarding}: best-effort data
 * passing through, and sending), {@code SessionStage} ({@code session}), {@code DeliveryStage}
 * ({@code delivery}: ports and reassembly), the stages modules add, and {@code UnclaimedStage}
 * ({@code unclaimed}), which counts what nobody took. {@code StageChain} runs them: frames stage by
 * stage, timers one stage at a time (a stage that throws is held back, {@code TimedStep}), the end
 * of each batch from the top down. The stages share {@code NodeContext} (clock, neighbours, the way
 * out, events, the cross-layer questions), never each other's fields; a fault while handling any
 * input is counted, logged and contained by {@code ProtocolFaults}.
 *
 * <p>{@code ModuleHost} is the node's side of the module SPI ({@link net.hopwise.overlay.spi}).
 * Everything the node counts is a plain field read by the meters in
 * {@link net.hopwise.overlay.node.NodeMeters}.
 */
package net.hopwise.overlay.node;
