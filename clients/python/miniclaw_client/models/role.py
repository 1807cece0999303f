from enum import StrEnum

class Role(StrEnum):
    CHAT = "chat"
    CHAT_PREMIUM = "chat_premium"
    COMPILE = "compile"
    DEDUP = "dedup"
    DIGEST = "digest"
    DREAM_JUDGE = "dream_judge"
    EXTRACTION = "extraction"
    FUSION = "fusion"
    GAP_DIAGNOSIS = "gap_diagnosis"
    GUARD = "guard"
    LINT = "lint"
    MENTOR = "mentor"
    OUTREACH = "outreach"
    QUALITY_EVAL = "quality_eval"
    RERANK = "rerank"
    SKILL = "skill"
    SPAWN = "spawn"
    SUMMARIZATION = "summarization"
    TRIAGE = "triage"

    def __str__(self) -> str:
        return str(self.value)
