/**
 * The node as a sans-IO machine: {@link net.hopwise.overlay.node.NodeStack} takes three inputs (a
 * datagram arrived, time passed, the application called) and has one output interface, {@link
 * net.hopwise.overlay.node.NodeOutput}.
 *
 * <p>The engine checks each datagram's header and sender (the frame), handles best-effort data,
 * forwarding, reassembly and local ports itself, and hands the rest to one class per layer, each
 * holding that layer's state: {@code LinkStage} (hellos, liveness, where a
 * neighbour is), the router in {@code net.hopwise.overlay.routing},
 * {@code ReliableLinkStage} (every link's reliable channel),
 * {@code RealTimeStage} (real-time channels and flows) and
 * {@code SessionStage} (the ends of reliable sessions). The layers reach one
 * another through the engine's package-level methods (clock, transmit, forwarding hop, delivery, events),
 * never through each other's fields. The timer is one {@code TimedStep} per
 * layer, each run on its own; a fault while handling any input is counted, logged and contained by
 * {@code ProtocolFaults}.
 *
 * <p>The Netty adapter in the parent package and the simulator drive the same engine; everything the
 * engine counts is a plain field read by the meters in {@link net.hopwise.overlay.node.NodeMeters}.
 */
package net.hopwise.overlay.node;
