package net.hopwise.multicast;

import net.hopwise.overlay.NodeId;

/**
 * One outgoing link's flow-controlled channel as the last cost update saw it.
 *
 * @param neighbour the node at the other end
 * @param average the buffer's average length over the last update period: the n of the link cost
 * @param peak the buffer's longest over that period
 * @param cost the cost advertised for it
 * @param inFlight packets sent and not yet acknowledged
 * @param window the congestion window, in packets
 * @param dropped packets dropped at the hard buffer limit or given up after repeated losses, since start
 * @param resent packets sent again, since start
 * @param updateBytes bytes of cost updates that rode on the link's packets, since start
 * @param updatesAlone cost updates that crossed the link as datagrams of their own, since start
 */
public record LinkBuffer(NodeId neighbour, double average, int peak, double cost, int inFlight, double window,
        long dropped, long resent, long updateBytes, long updatesAlone) {}
