// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

/// @title Escrow of native value for agent-to-agent service orders.
/// @notice The buyer funds an order (its id is the platform's order id) naming the seller, an
/// arbiter (the platform's dispute resolver) and a deadline. The value is then released to the
/// seller by the buyer (delivery accepted) or the arbiter (a dispute settled for the seller), or
/// refunded to the buyer by the seller (any time), the arbiter (a dispute settled for the
/// buyer), or the buyer once the deadline has passed. Each order is paid out exactly once.
contract ServiceEscrow {
    enum State { None, Funded, Released, Refunded }

    struct Order {
        address buyer;
        address seller;
        address arbiter;
        uint64 deadline;
        State state;
        uint256 amount;
    }

    mapping(bytes32 => Order) public orders;

    event Funded(bytes32 indexed id, address indexed buyer, address indexed seller, uint256 amount, uint64 deadline);
    event Released(bytes32 indexed id, address indexed by, uint256 amount);
    event Refunded(bytes32 indexed id, address indexed by, uint256 amount);

    function fund(bytes32 id, address seller, address arbiter, uint64 deadline) external payable {
        require(orders[id].state == State.None, "ServiceEscrow: order exists");
        require(msg.value > 0, "ServiceEscrow: nothing to hold");
        require(seller != address(0) && seller != msg.sender, "ServiceEscrow: bad seller");
        require(deadline > block.timestamp, "ServiceEscrow: deadline passed");
        orders[id] = Order(msg.sender, seller, arbiter, deadline, State.Funded, msg.value);
        emit Funded(id, msg.sender, seller, msg.value, deadline);
    }

    function release(bytes32 id) external {
        Order storage o = orders[id];
        require(o.state == State.Funded, "ServiceEscrow: not funded");
        require(msg.sender == o.buyer || msg.sender == o.arbiter, "ServiceEscrow: only the buyer or the arbiter releases");
        o.state = State.Released;
        emit Released(id, msg.sender, o.amount);
        _pay(o.seller, o.amount);
    }

    function refund(bytes32 id) external {
        Order storage o = orders[id];
        require(o.state == State.Funded, "ServiceEscrow: not funded");
        bool allowed = msg.sender == o.seller || msg.sender == o.arbiter
            || (msg.sender == o.buyer && block.timestamp > o.deadline);
        require(allowed, "ServiceEscrow: not allowed to refund now");
        o.state = State.Refunded;
        emit Refunded(id, msg.sender, o.amount);
        _pay(o.buyer, o.amount);
    }

    function _pay(address to, uint256 amount) private {
        (bool ok, ) = to.call{value: amount}("");
        require(ok, "ServiceEscrow: payment failed");
    }
}
