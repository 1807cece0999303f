""" Contains all the data models used in inputs/outputs """

from .account_export import AccountExport
from .account_key import AccountKey
from .account_state import AccountState
from .action import Action
from .activity_entry import ActivityEntry
from .activity_entry_details import ActivityEntryDetails
from .agent import Agent
from .agent_input import AgentInput
from .analytics import Analytics
from .analytics_memory_categories import AnalyticsMemoryCategories
from .api_key import ApiKey
from .approve_request import ApproveRequest
from .asked import Asked
from .asset import Asset
from .availability import Availability
from .backed import Backed
from .backing import Backing
from .batch_day import BatchDay
from .batch_efficiency import BatchEfficiency
from .better import Better
from .books import Books
from .brain_graph import BrainGraph
from .brief import Brief
from .bulk_input import BulkInput
from .bulk_result import BulkResult
from .bundle import Bundle
from .call_answer import CallAnswer
from .call_input import CallInput
from .challenge import Challenge
from .chat_input import ChatInput
from .chat_message import ChatMessage
from .chat_message_meta import ChatMessageMeta
from .chat_reply import ChatReply
from .checked import Checked
from .close_request import CloseRequest
from .closing import Closing
from .cluster import Cluster
from .code_request import CodeRequest
from .comment import Comment
from .comment_input import CommentInput
from .compared import Compared
from .comparison import Comparison
from .completion_message import CompletionMessage
from .completion_message_content import CompletionMessageContent
from .completion_message_tool_calls_type_0_item import CompletionMessageToolCallsType0Item
from .completion_request import CompletionRequest
from .completion_request_stream_options_type_0 import CompletionRequestStreamOptionsType0
from .completion_request_tool_choice_type_0 import CompletionRequestToolChoiceType0
from .completion_request_tools_type_0_item import CompletionRequestToolsType0Item
from .confirm import Confirm
from .connect_challenge_request import ConnectChallengeRequest
from .connect_input import ConnectInput
from .connect_request import ConnectRequest
from .conversation import Conversation
from .conversation_of_person import ConversationOfPerson
from .coordinates import Coordinates
from .coupling import Coupling
from .create_account_key_request import CreateAccountKeyRequest
from .create_key_request import CreateKeyRequest
from .cycle_info import CycleInfo
from .cycle_scope import CycleScope
from .day import Day
from .day_part import DayPart
from .delivery import Delivery
from .delivery_data import DeliveryData
from .delivery_log_item import DeliveryLogItem
from .detail import Detail
from .dimension import Dimension
from .domain_proof import DomainProof
from .dossier import Dossier
from .dossier_state import DossierState
from .draft import Draft
from .economy import Economy
from .economy_orders_as_buyer import EconomyOrdersAsBuyer
from .economy_orders_as_seller import EconomyOrdersAsSeller
from .edge import Edge
from .edit_input import EditInput
from .email_change import EmailChange
from .email_change_asked import EmailChangeAsked
from .endpoint import Endpoint
from .endpoint_input import EndpointInput
from .endpoint_patch import EndpointPatch
from .endpoint_with_secret import EndpointWithSecret
from .enqueue_job import EnqueueJob
from .enqueue_job_payload_type_0 import EnqueueJobPayloadType0
from .entry import Entry
from .erased import Erased
from .error_body import ErrorBody
from .error_detail import ErrorDetail
from .error_detail_details_type_0 import ErrorDetailDetailsType0
from .evaluation import Evaluation
from .event_type import EventType
from .explanation import Explanation
from .export_agent_format import ExportAgentFormat
from .external_input import ExternalInput
from .external_wallet import ExternalWallet
from .feedback import Feedback
from .feedback_input import FeedbackInput
from .gap_status import GapStatus
from .gap_update import GapUpdate
from .gateway_health import GatewayHealth
from .grade import Grade
from .grant import Grant
from .handled import Handled
from .health import Health
from .holder import Holder
from .hot import Hot
from .identity import Identity
from .import_ import Import
from .import_message import ImportMessage
from .import_request import ImportRequest
from .imported import Imported
from .inbound_email import InboundEmail
from .install_request import InstallRequest
from .install_step import InstallStep
from .installed import Installed
from .invitation import Invitation
from .invitation_request import InvitationRequest
from .issued_account_key import IssuedAccountKey
from .issued_key import IssuedKey
from .item import Item
from .job import Job
from .job_payload import JobPayload
from .job_result_type_0 import JobResultType0
from .join_request import JoinRequest
from .key_day import KeyDay
from .key_usage import KeyUsage
from .kill_switch import KillSwitch
from .kill_switch_request import KillSwitchRequest
from .knowledge_gap import KnowledgeGap
from .knowledge_result import KnowledgeResult
from .knowledge_text import KnowledgeText
from .knowledge_url import KnowledgeUrl
from .limits import Limits
from .limits_input import LimitsInput
from .listing import Listing
from .live_state import LiveState
from .liveness import Liveness
from .llm_line import LlmLine
from .llm_summary import LlmSummary
from .login_request import LoginRequest
from .manifest import Manifest
from .marked_read import MarkedRead
from .mcp_call import McpCall
from .mcp_call_arguments import McpCallArguments
from .mcp_call_decision import McpCallDecision
from .mcp_delete_response_400 import McpDeleteResponse400
from .mcp_delete_response_401 import McpDeleteResponse401
from .mcp_delete_response_404 import McpDeleteResponse404
from .mcp_delete_response_406 import McpDeleteResponse406
from .mcp_delete_response_413 import McpDeleteResponse413
from .mcp_delete_response_429 import McpDeleteResponse429
from .mcp_get_response_400 import McpGetResponse400
from .mcp_get_response_401 import McpGetResponse401
from .mcp_get_response_404 import McpGetResponse404
from .mcp_get_response_406 import McpGetResponse406
from .mcp_get_response_413 import McpGetResponse413
from .mcp_get_response_429 import McpGetResponse429
from .mcp_post_body import McpPostBody
from .mcp_post_response_200 import McpPostResponse200
from .mcp_post_response_400 import McpPostResponse400
from .mcp_post_response_401 import McpPostResponse401
from .mcp_post_response_404 import McpPostResponse404
from .mcp_post_response_406 import McpPostResponse406
from .mcp_post_response_413 import McpPostResponse413
from .mcp_post_response_429 import McpPostResponse429
from .mcp_server import McpServer
from .mcp_server_input import McpServerInput
from .mcp_server_patch import McpServerPatch
from .me_response import MeResponse
from .member import Member
from .memory import Memory
from .memory_input import MemoryInput
from .memory_of_person import MemoryOfPerson
from .memory_source import MemorySource
from .memory_status import MemoryStatus
from .memory_update import MemoryUpdate
from .memory_version import MemoryVersion
from .memory_version_snapshot import MemoryVersionSnapshot
from .message_out import MessageOut
from .metric import Metric
from .metrics import Metrics
from .metrics_channels import MetricsChannels
from .metrics_chat_models import MetricsChatModels
from .metrics_dedup import MetricsDedup
from .metrics_finish_reasons import MetricsFinishReasons
from .metrics_intents import MetricsIntents
from .metrics_response_styles import MetricsResponseStyles
from .metrics_skip_reasons import MetricsSkipReasons
from .milestone import Milestone
from .mirror import Mirror
from .mirror_report import MirrorReport
from .model import Model
from .model_list import ModelList
from .moderation import Moderation
from .module import Module
from .moment import Moment
from .month import Month
from .months import Months
from .mood import Mood
from .moods import Moods
from .move import Move
from .node import Node
from .notification import Notification
from .notification_channels import NotificationChannels
from .offer import Offer
from .order import Order
from .order_rail import OrderRail
from .order_request import OrderRequest
from .order_resolution import OrderResolution
from .order_step import OrderStep
from .outcome import Outcome
from .owner_view import OwnerView
from .paid import Paid
from .password_change import PasswordChange
from .password_changed import PasswordChanged
from .password_reset import PasswordReset
from .path_report import PathReport
from .pay_request import PayRequest
from .payer import Payer
from .payment_required import PaymentRequired
from .percentiles import Percentiles
from .period import Period
from .person_export import PersonExport
from .phase import Phase
from .pick import Pick
from .poc import Poc
from .poc_day import PocDay
from .poc_day_dimensions import PocDayDimensions
from .point import Point
from .pool import Pool
from .portable_agent import PortableAgent
from .portable_conversation import PortableConversation
from .portable_dossier import PortableDossier
from .portable_memory import PortableMemory
from .portable_message import PortableMessage
from .portable_relation import PortableRelation
from .portable_skill import PortableSkill
from .portable_soul_version import PortableSoulVersion
from .portable_task import PortableTask
from .portable_version import PortableVersion
from .portable_version_snapshot import PortableVersionSnapshot
from .post import Post
from .post_input import PostInput
from .post_wisdom_type_0 import PostWisdomType0
from .proactive_input import ProactiveInput
from .profile import Profile
from .proposal_input import ProposalInput
from .publish_request import PublishRequest
from .queued import Queued
from .quiet_hours import QuietHours
from .quota import Quota
from .rail import Rail
from .rate_request import RateRequest
from .readiness import Readiness
from .recovery_codes import RecoveryCodes
from .reflection import Reflection
from .reflection_actions_item import ReflectionActionsItem
from .reflection_calibration_type_0 import ReflectionCalibrationType0
from .reflection_soul_type_0 import ReflectionSoulType0
from .reflection_trigger import ReflectionTrigger
from .refresh_request import RefreshRequest
from .refresh_response import RefreshResponse
from .reject_input import RejectInput
from .related import Related
from .relations import Relations
from .remote_tool import RemoteTool
from .remote_tool_input_schema import RemoteToolInputSchema
from .reply_event import ReplyEvent
from .reply_input import ReplyInput
from .reply_meta import ReplyMeta
from .reply_meta_memories_used_item import ReplyMetaMemoriesUsedItem
from .reply_meta_searched import ReplyMetaSearched
from .reply_meta_tool_calls_item import ReplyMetaToolCallsItem
from .requirement import Requirement
from .requirement_extra import RequirementExtra
from .requires import Requires
from .reset_answer import ResetAnswer
from .reset_asked import ResetAsked
from .resolution import Resolution
from .resonance import Resonance
from .resource import Resource
from .restore_input import RestoreInput
from .resume import Resume
from .review import Review
from .role import Role
from .role_change import RoleChange
from .route import Route
from .routing_table import RoutingTable
from .rpc_body import RpcBody
from .ruling import Ruling
from .search_filters import SearchFilters
from .search_request import SearchRequest
from .search_response import SearchResponse
from .search_result import SearchResult
from .second_factor_login import SecondFactorLogin
from .second_factor_required import SecondFactorRequired
from .second_factor_setup import SecondFactorSetup
from .second_factor_status import SecondFactorStatus
from .send_request import SendRequest
from .sender_input import SenderInput
from .sender_view import SenderView
from .service import Service
from .service_input import ServiceInput
from .session import Session
from .session_response import SessionResponse
from .settings import Settings
from .settlement import Settlement
from .shadow_input import ShadowInput
from .shadow_report import ShadowReport
from .side import Side
from .sign_in_device import SignInDevice
from .signal import Signal
from .signal_status import SignalStatus
from .signal_value import SignalValue
from .signals import Signals
from .signup_request import SignupRequest
from .skill_source import SkillSource
from .snapshot import Snapshot
from .soul import Soul
from .soul_input import SoulInput
from .soul_version import SoulVersion
from .speaker_mood import SpeakerMood
from .split import Split
from .sponsor_wallet import SponsorWallet
from .stake import Stake
from .stake_request import StakeRequest
from .started import Started
from .statement import Statement
from .stats import Stats
from .stats_per_figure import StatsPerFigure
from .stats_themes import StatsThemes
from .subsidy import Subsidy
from .summary import Summary
from .suspension import Suspension
from .target import Target
from .target_kind import TargetKind
from .task import Task
from .task_input import TaskInput
from .teaching import Teaching
from .team import Team
from .team_role import TeamRole
from .telegram_status import TelegramStatus
from .tenant_view import TenantView
from .thread import Thread
from .thread_detail import ThreadDetail
from .thread_message import ThreadMessage
from .thread_message_headers import ThreadMessageHeaders
from .tier import Tier
from .timings import Timings
from .tip import Tip
from .tip_decision import TipDecision
from .tip_request import TipRequest
from .tip_totals import TipTotals
from .token import Token
from .token_input import TokenInput
from .token_transfer import TokenTransfer
from .topup import Topup
from .topup_result import TopupResult
from .trace import Trace
from .transfer import Transfer
from .transfer_input import TransferInput
from .traversal_report import TraversalReport
from .traversal_step import TraversalStep
from .unavailable import Unavailable
from .update import Update
from .update_message_type_0 import UpdateMessageType0
from .usage import Usage
from .verification_input import VerificationInput
from .verification_provider import VerificationProvider
from .verification_record import VerificationRecord
from .verification_sent import VerificationSent
from .verification_status import VerificationStatus
from .verification_summary import VerificationSummary
from .verified import Verified
from .verify_email_request import VerifyEmailRequest
from .version import Version
from .version_out import VersionOut
from .version_out_snapshot import VersionOutSnapshot
from .vertical import Vertical
from .vertical_metrics import VerticalMetrics
from .wallet import Wallet
from .wallet_balance import WalletBalance
from .wallet_challenge_request import WalletChallengeRequest
from .wallet_login_request import WalletLoginRequest
from .wallet_transaction import WalletTransaction
from .wallet_view import WalletView
from .webhook_delivery import WebhookDelivery
from .window import Window
from .wisdom_answer import WisdomAnswer

__all__ = (
    "AccountExport",
    "AccountKey",
    "AccountState",
    "Action",
    "ActivityEntry",
    "ActivityEntryDetails",
    "Agent",
    "AgentInput",
    "Analytics",
    "AnalyticsMemoryCategories",
    "ApiKey",
    "ApproveRequest",
    "Asked",
    "Asset",
    "Availability",
    "Backed",
    "Backing",
    "BatchDay",
    "BatchEfficiency",
    "Better",
    "Books",
    "BrainGraph",
    "Brief",
    "BulkInput",
    "BulkResult",
    "Bundle",
    "CallAnswer",
    "CallInput",
    "Challenge",
    "ChatInput",
    "ChatMessage",
    "ChatMessageMeta",
    "ChatReply",
    "Checked",
    "CloseRequest",
    "Closing",
    "Cluster",
    "CodeRequest",
    "Comment",
    "CommentInput",
    "Compared",
    "Comparison",
    "CompletionMessage",
    "CompletionMessageContent",
    "CompletionMessageToolCallsType0Item",
    "CompletionRequest",
    "CompletionRequestStreamOptionsType0",
    "CompletionRequestToolChoiceType0",
    "CompletionRequestToolsType0Item",
    "Confirm",
    "ConnectChallengeRequest",
    "ConnectInput",
    "ConnectRequest",
    "Conversation",
    "ConversationOfPerson",
    "Coordinates",
    "Coupling",
    "CreateAccountKeyRequest",
    "CreateKeyRequest",
    "CycleInfo",
    "CycleScope",
    "Day",
    "DayPart",
    "Delivery",
    "DeliveryData",
    "DeliveryLogItem",
    "Detail",
    "Dimension",
    "DomainProof",
    "Dossier",
    "DossierState",
    "Draft",
    "Economy",
    "EconomyOrdersAsBuyer",
    "EconomyOrdersAsSeller",
    "Edge",
    "EditInput",
    "EmailChange",
    "EmailChangeAsked",
    "Endpoint",
    "EndpointInput",
    "EndpointPatch",
    "EndpointWithSecret",
    "EnqueueJob",
    "EnqueueJobPayloadType0",
    "Entry",
    "Erased",
    "ErrorBody",
    "ErrorDetail",
    "ErrorDetailDetailsType0",
    "Evaluation",
    "EventType",
    "Explanation",
    "ExportAgentFormat",
    "ExternalInput",
    "ExternalWallet",
    "Feedback",
    "FeedbackInput",
    "GapStatus",
    "GapUpdate",
    "GatewayHealth",
    "Grade",
    "Grant",
    "Handled",
    "Health",
    "Holder",
    "Hot",
    "Identity",
    "Import",
    "Imported",
    "ImportMessage",
    "ImportRequest",
    "InboundEmail",
    "Installed",
    "InstallRequest",
    "InstallStep",
    "Invitation",
    "InvitationRequest",
    "IssuedAccountKey",
    "IssuedKey",
    "Item",
    "Job",
    "JobPayload",
    "JobResultType0",
    "JoinRequest",
    "KeyDay",
    "KeyUsage",
    "KillSwitch",
    "KillSwitchRequest",
    "KnowledgeGap",
    "KnowledgeResult",
    "KnowledgeText",
    "KnowledgeUrl",
    "Limits",
    "LimitsInput",
    "Listing",
    "Liveness",
    "LiveState",
    "LlmLine",
    "LlmSummary",
    "LoginRequest",
    "Manifest",
    "MarkedRead",
    "McpCall",
    "McpCallArguments",
    "McpCallDecision",
    "McpDeleteResponse400",
    "McpDeleteResponse401",
    "McpDeleteResponse404",
    "McpDeleteResponse406",
    "McpDeleteResponse413",
    "McpDeleteResponse429",
    "McpGetResponse400",
    "McpGetResponse401",
    "McpGetResponse404",
    "McpGetResponse406",
    "McpGetResponse413",
    "McpGetResponse429",
    "McpPostBody",
    "McpPostResponse200",
    "McpPostResponse400",
    "McpPostResponse401",
    "McpPostResponse404",
    "McpPostResponse406",
    "McpPostResponse413",
    "McpPostResponse429",
    "McpServer",
    "McpServerInput",
    "McpServerPatch",
    "Member",
    "Memory",
    "MemoryInput",
    "MemoryOfPerson",
    "MemorySource",
    "MemoryStatus",
    "MemoryUpdate",
    "MemoryVersion",
    "MemoryVersionSnapshot",
    "MeResponse",
    "MessageOut",
    "Metric",
    "Metrics",
    "MetricsChannels",
    "MetricsChatModels",
    "MetricsDedup",
    "MetricsFinishReasons",
    "MetricsIntents",
    "MetricsResponseStyles",
    "MetricsSkipReasons",
    "Milestone",
    "Mirror",
    "MirrorReport",
    "Model",
    "ModelList",
    "Moderation",
    "Module",
    "Moment",
    "Month",
    "Months",
    "Mood",
    "Moods",
    "Move",
    "Node",
    "Notification",
    "NotificationChannels",
    "Offer",
    "Order",
    "OrderRail",
    "OrderRequest",
    "OrderResolution",
    "OrderStep",
    "Outcome",
    "OwnerView",
    "Paid",
    "PasswordChange",
    "PasswordChanged",
    "PasswordReset",
    "PathReport",
    "Payer",
    "PaymentRequired",
    "PayRequest",
    "Percentiles",
    "Period",
    "PersonExport",
    "Phase",
    "Pick",
    "Poc",
    "PocDay",
    "PocDayDimensions",
    "Point",
    "Pool",
    "PortableAgent",
    "PortableConversation",
    "PortableDossier",
    "PortableMemory",
    "PortableMessage",
    "PortableRelation",
    "PortableSkill",
    "PortableSoulVersion",
    "PortableTask",
    "PortableVersion",
    "PortableVersionSnapshot",
    "Post",
    "PostInput",
    "PostWisdomType0",
    "ProactiveInput",
    "Profile",
    "ProposalInput",
    "PublishRequest",
    "Queued",
    "QuietHours",
    "Quota",
    "Rail",
    "RateRequest",
    "Readiness",
    "RecoveryCodes",
    "Reflection",
    "ReflectionActionsItem",
    "ReflectionCalibrationType0",
    "ReflectionSoulType0",
    "ReflectionTrigger",
    "RefreshRequest",
    "RefreshResponse",
    "RejectInput",
    "Related",
    "Relations",
    "RemoteTool",
    "RemoteToolInputSchema",
    "ReplyEvent",
    "ReplyInput",
    "ReplyMeta",
    "ReplyMetaMemoriesUsedItem",
    "ReplyMetaSearched",
    "ReplyMetaToolCallsItem",
    "Requirement",
    "RequirementExtra",
    "Requires",
    "ResetAnswer",
    "ResetAsked",
    "Resolution",
    "Resonance",
    "Resource",
    "RestoreInput",
    "Resume",
    "Review",
    "Role",
    "RoleChange",
    "Route",
    "RoutingTable",
    "RpcBody",
    "Ruling",
    "SearchFilters",
    "SearchRequest",
    "SearchResponse",
    "SearchResult",
    "SecondFactorLogin",
    "SecondFactorRequired",
    "SecondFactorSetup",
    "SecondFactorStatus",
    "SenderInput",
    "SenderView",
    "SendRequest",
    "Service",
    "ServiceInput",
    "Session",
    "SessionResponse",
    "Settings",
    "Settlement",
    "ShadowInput",
    "ShadowReport",
    "Side",
    "Signal",
    "Signals",
    "SignalStatus",
    "SignalValue",
    "SignInDevice",
    "SignupRequest",
    "SkillSource",
    "Snapshot",
    "Soul",
    "SoulInput",
    "SoulVersion",
    "SpeakerMood",
    "Split",
    "SponsorWallet",
    "Stake",
    "StakeRequest",
    "Started",
    "Statement",
    "Stats",
    "StatsPerFigure",
    "StatsThemes",
    "Subsidy",
    "Summary",
    "Suspension",
    "Target",
    "TargetKind",
    "Task",
    "TaskInput",
    "Teaching",
    "Team",
    "TeamRole",
    "TelegramStatus",
    "TenantView",
    "Thread",
    "ThreadDetail",
    "ThreadMessage",
    "ThreadMessageHeaders",
    "Tier",
    "Timings",
    "Tip",
    "TipDecision",
    "TipRequest",
    "TipTotals",
    "Token",
    "TokenInput",
    "TokenTransfer",
    "Topup",
    "TopupResult",
    "Trace",
    "Transfer",
    "TransferInput",
    "TraversalReport",
    "TraversalStep",
    "Unavailable",
    "Update",
    "UpdateMessageType0",
    "Usage",
    "VerificationInput",
    "VerificationProvider",
    "VerificationRecord",
    "VerificationSent",
    "VerificationStatus",
    "VerificationSummary",
    "Verified",
    "VerifyEmailRequest",
    "Version",
    "VersionOut",
    "VersionOutSnapshot",
    "Vertical",
    "VerticalMetrics",
    "Wallet",
    "WalletBalance",
    "WalletChallengeRequest",
    "WalletLoginRequest",
    "WalletTransaction",
    "WalletView",
    "WebhookDelivery",
    "Window",
    "WisdomAnswer",
)
