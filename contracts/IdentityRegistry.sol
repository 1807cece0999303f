// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

/// @title A minimal ERC-8004 IdentityRegistry (v2.0.0 interface) for tests and local chains.
/// @notice Each agent is an ERC-721 token ("AgentIdentity", "AGENT") whose token URI points to
/// its registration file. Ids start at 0. The deployed registries on Base and Celo implement
/// the same external interface (plus upgradeability and the EIP-712 `setAgentWallet`, which
/// miniclaw does not use); miniclaw's tests deploy this contract on anvil.
contract IdentityRegistry {
    struct MetadataEntry {
        string metadataKey;
        bytes metadataValue;
    }

    // ERC-721
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);
    // ERC-8004
    event Registered(uint256 indexed agentId, string agentURI, address indexed owner);
    event URIUpdated(uint256 indexed agentId, string newURI, address indexed updatedBy);
    event MetadataSet(
        uint256 indexed agentId, string indexed indexedMetadataKey, string metadataKey, bytes metadataValue
    );

    string public constant name = "AgentIdentity";
    string public constant symbol = "AGENT";
    bytes32 private constant WALLET_KEY = keccak256("agentWallet");

    uint256 private nextId;
    mapping(uint256 => address) private owners;
    mapping(address => uint256) private balances;
    mapping(uint256 => address) private approvals;
    mapping(address => mapping(address => bool)) private operators;
    mapping(uint256 => string) private uris;
    mapping(uint256 => mapping(string => bytes)) private metadata;

    function getVersion() external pure returns (string memory) {
        return "2.0.0";
    }

    // --- registration -------------------------------------------------------------------------

    function register() external returns (uint256 agentId) {
        agentId = mintTo(msg.sender, "");
    }

    function register(string calldata agentURI) external returns (uint256 agentId) {
        agentId = mintTo(msg.sender, agentURI);
    }

    function register(string calldata agentURI, MetadataEntry[] calldata entries) external returns (uint256 agentId) {
        agentId = mintTo(msg.sender, agentURI);
        for (uint256 i = 0; i < entries.length; i++) {
            writeMetadata(agentId, entries[i].metadataKey, entries[i].metadataValue);
        }
    }

    function setAgentURI(uint256 agentId, string calldata newURI) external {
        require(mayManage(msg.sender, agentId), "Not authorized");
        uris[agentId] = newURI;
        emit URIUpdated(agentId, newURI, msg.sender);
    }

    function getMetadata(uint256 agentId, string calldata metadataKey) external view returns (bytes memory) {
        return metadata[agentId][metadataKey];
    }

    function setMetadata(uint256 agentId, string calldata metadataKey, bytes calldata metadataValue) external {
        require(mayManage(msg.sender, agentId), "Not authorized");
        writeMetadata(agentId, metadataKey, metadataValue);
    }

    /// The address the agent is paid at: its owner at registration, cleared on transfer.
    function getAgentWallet(uint256 agentId) external view returns (address) {
        bytes memory raw = metadata[agentId]["agentWallet"];
        return raw.length == 20 ? address(bytes20(raw)) : address(0);
    }

    function unsetAgentWallet(uint256 agentId) external {
        require(mayManage(msg.sender, agentId), "Not authorized");
        delete metadata[agentId]["agentWallet"];
        emit MetadataSet(agentId, "agentWallet", "agentWallet", "");
    }

    function isAuthorizedOrOwner(address spender, uint256 agentId) external view returns (bool) {
        return mayManage(spender, agentId);
    }

    // --- ERC-721 ------------------------------------------------------------------------------

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7 // ERC-165
            || interfaceId == 0x80ac58cd // ERC-721
            || interfaceId == 0x5b5e139f; // ERC-721 metadata
    }

    function balanceOf(address owner) external view returns (uint256) {
        require(owner != address(0), "zero address");
        return balances[owner];
    }

    function ownerOf(uint256 tokenId) public view returns (address owner) {
        owner = owners[tokenId];
        require(owner != address(0), "nonexistent token");
    }

    function tokenURI(uint256 tokenId) external view returns (string memory) {
        ownerOf(tokenId);
        return uris[tokenId];
    }

    function approve(address to, uint256 tokenId) external {
        address owner = ownerOf(tokenId);
        require(msg.sender == owner || operators[owner][msg.sender], "Not authorized");
        approvals[tokenId] = to;
        emit Approval(owner, to, tokenId);
    }

    function getApproved(uint256 tokenId) public view returns (address) {
        ownerOf(tokenId);
        return approvals[tokenId];
    }

    function setApprovalForAll(address operator, bool approved) external {
        operators[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function isApprovedForAll(address owner, address operator) public view returns (bool) {
        return operators[owner][operator];
    }

    function transferFrom(address from, address to, uint256 tokenId) public {
        require(mayManage(msg.sender, tokenId), "Not authorized");
        require(ownerOf(tokenId) == from, "wrong owner");
        require(to != address(0), "zero address");
        delete approvals[tokenId];
        // A new owner proves its own payment address again.
        delete metadata[tokenId]["agentWallet"];
        balances[from] -= 1;
        balances[to] += 1;
        owners[tokenId] = to;
        emit Transfer(from, to, tokenId);
    }

    function safeTransferFrom(address from, address to, uint256 tokenId) external {
        safeTransferFrom(from, to, tokenId, "");
    }

    function safeTransferFrom(address from, address to, uint256 tokenId, bytes memory data) public {
        transferFrom(from, to, tokenId);
        requireReceiver(from, to, tokenId, data);
    }

    // --- internals ----------------------------------------------------------------------------

    function mintTo(address to, string memory agentURI) private returns (uint256 agentId) {
        agentId = nextId++;
        owners[agentId] = to;
        balances[to] += 1;
        uris[agentId] = agentURI;
        metadata[agentId]["agentWallet"] = abi.encodePacked(to);
        emit Transfer(address(0), to, agentId);
        requireReceiver(address(0), to, agentId, "");
        emit Registered(agentId, agentURI, to);
        emit MetadataSet(agentId, "agentWallet", "agentWallet", abi.encodePacked(to));
    }

    function writeMetadata(uint256 agentId, string memory key, bytes memory value) private {
        require(keccak256(bytes(key)) != WALLET_KEY, "reserved key");
        metadata[agentId][key] = value;
        emit MetadataSet(agentId, key, key, value);
    }

    function mayManage(address spender, uint256 tokenId) private view returns (bool) {
        address owner = ownerOf(tokenId);
        return spender == owner || approvals[tokenId] == spender || operators[owner][spender];
    }

    /// A contract receiving a token must accept it (ERC-721 `onERC721Received`).
    function requireReceiver(address from, address to, uint256 tokenId, bytes memory data) private {
        if (to.code.length == 0) return;
        (bool ok, bytes memory answer) =
            to.call(abi.encodeWithSelector(0x150b7a02, msg.sender, from, tokenId, data));
        require(ok && answer.length >= 32 && abi.decode(answer, (bytes4)) == 0x150b7a02, "receiver refused");
    }
}
