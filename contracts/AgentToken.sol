// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

/// @title An agent's ERC-20 token.
/// @notice The whole supply is minted once, at deployment, to the deploying wallet (the agent's
/// server-managed wallet); there is no owner, no further minting and no pausing. The interface
/// is the standard ERC-20 one (EIP-20) with the usual `Transfer` and `Approval` events, so any
/// wallet or indexer reads it.
contract AgentToken {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public immutable totalSupply;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply_) {
        require(bytes(name_).length > 0 && bytes(symbol_).length > 0, "AgentToken: name and symbol are required");
        require(supply_ > 0, "AgentToken: the supply must be positive");
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        totalSupply = supply_;
        balanceOf[msg.sender] = supply_;
        emit Transfer(address(0), msg.sender, supply_);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        require(spender != address(0), "AgentToken: approve to the zero address");
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "AgentToken: insufficient allowance");
            allowance[from][msg.sender] = allowed - value;
        }
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) private {
        require(to != address(0), "AgentToken: transfer to the zero address");
        uint256 held = balanceOf[from];
        require(held >= value, "AgentToken: transfer amount exceeds balance");
        unchecked {
            balanceOf[from] = held - value;
        }
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
