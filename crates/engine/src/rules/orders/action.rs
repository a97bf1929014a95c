//! What players do ([`OrdersAction`]), what the engine reports ([`OrdersEvent`]) and why it
//! refuses ([`OrdersError`]).

use super::*;

/// Everything a player can do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OrdersAction {
    /// A power's orders for the current phase (replaces any earlier submission this phase).
    Submit {
        power: PowerId,
        orders: Vec<Written>,
    },
    /// Resolve the current phase with the orders submitted so far (missing orders: units hold,
    /// dislodged units disband, builds are waived, missing disbands follow civil disorder).
    Adjudicate,
    /// A power accepts (or withdraws acceptance of) a draw; when every surviving power accepts,
    /// the game ends drawn.
    Draw { power: PowerId, accept: bool },
}

/// What happened, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OrdersEvent {
    Submitted {
        power: PowerId,
    },
    Resolved {
        year: u16,
        season: Season,
        phase: Phase,
        results: Vec<OrderResult>,
    },
    CentreTaken {
        province: ProvinceId,
        from: Option<PowerId>,
        to: PowerId,
    },
    Eliminated {
        power: PowerId,
    },
    PhaseStarted {
        year: u16,
        season: Season,
        phase: Phase,
    },
    DrawVote {
        power: PowerId,
        accept: bool,
    },
    Won {
        power: PowerId,
    },
    Drawn,
}

/// An illegal action, with a message a player understands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OrdersError {
    GameOver,
    UnknownPower(PowerId),
    /// The power has been eliminated.
    Out(String),
    /// The order does not belong in this phase.
    WrongPhase {
        order: String,
        phase: String,
    },
    NoUnit {
        order: String,
    },
    NotYours {
        order: String,
    },
    TwoOrders {
        unit: String,
    },
    UnknownMap(String),
    PlayerCount(u8),
    /// Combining is a house option, and only in Fall.
    NoCombine {
        order: String,
    },
    /// A build that names a facing without the house option, or names a sea the coast does not
    /// border, or a fleet build that must name one of several seas (`seas`: the choices).
    Facing {
        order: String,
        seas: String,
    },
}

impl fmt::Display for OrdersError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use OrdersError::*;
        match self {
            GameOver => write!(f, "The game is over."),
            UnknownPower(p) => write!(f, "There is no power number {p} in this game."),
            Out(p) => write!(f, "{p} has been eliminated and gives no more orders."),
            WrongPhase { order, phase } => write!(f, "`{order}` is not an order for the {phase}."),
            NoUnit { order } => write!(f, "`{order}`: there is no such unit to order."),
            NotYours { order } => write!(f, "`{order}`: that unit belongs to another power."),
            TwoOrders { unit } => write!(f, "{unit} has been given two orders."),
            UnknownMap(m) => write!(f, "There is no map called `{m}` for this ruleset."),
            PlayerCount(n) => write!(f, "This map has no setup for {n} players."),
            NoCombine { order } => write!(
                f,
                "`{order}`: units can only combine in Fall, and only when the \"combine\" house option is on."
            ),
            Facing { order, seas } if seas.is_empty() => write!(
                f,
                "`{order}`: only a fleet built on a coast faces a sea, and only when the \"fleets face a sea\" house option is on."
            ),
            Facing { order, seas } => write!(
                f,
                "`{order}`: say which sea the new fleet faces: {seas} (for example `F BRE B FACING MAO`)."
            ),
        }
    }
}

impl std::error::Error for OrdersError {}
