//! Choices that puzzle files and flags write by name (`ladder`, `core-guided`, `up`): each
//! enum lists its values and their names once, in [`named_values!`](crate::named_values), and
//! gets from that one table its list of values, its list of names, `name`, `from_name` and
//! `Display`.

/// Declares the names of an enum's values, in the order help texts and errors list them:
///
/// ```
/// #[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// pub enum Side {
///     /// Moves first.
///     White,
///     /// Moves second.
///     Black,
/// }
/// knights_sat_encodings::named_values!(Side { White => "white", Black => "black" });
///
/// assert_eq!(Side::from_name("black"), Some(Side::Black));
/// assert_eq!(Side::White.name(), "white");
/// assert_eq!(Side::NAMES.join(", "), "white, black");
/// assert_eq!(Side::ALL, [Side::White, Side::Black]);
/// assert_eq!(Side::Black.to_string(), "black");
/// ```
#[macro_export]
macro_rules! named_values {
    ($ty:ident { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// Every value, in the order of its name in `NAMES`.
            pub const ALL: [$ty; [$($name),+].len()] = [$($ty::$variant),+];

            /// The name of every value, as files and flags write it.
            pub const NAMES: [&'static str; [$($name),+].len()] = [$($name),+];

            /// The name files and flags write for this value.
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)+
                }
            }

            /// The value files and flags write as `name`.
            pub fn from_name(name: &str) -> Option<$ty> {
                match name {
                    $($name => Some($ty::$variant),)+
                    _ => None,
                }
            }
        }

        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}
