import defaultAvatar from '../assets/default-avatar.svg';
import defaultCover from '../assets/default-cover.svg';

export { defaultAvatar, defaultCover };

interface AvatarProps {
  src: string | null | undefined;
  name: string;
  size?: number;
  className?: string;
}

export function Avatar({ src, name, size = 96, className }: AvatarProps) {
  return (
    <img
      className={className ? `avatar ${className}` : 'avatar'}
      src={src || defaultAvatar}
      alt={`${name}'s profile picture`}
      width={size}
      height={size}
      onError={(event) => {
        if (!event.currentTarget.src.endsWith(defaultAvatar)) event.currentTarget.src = defaultAvatar;
      }}
    />
  );
}

interface CoverProps {
  src: string | null | undefined;
  name: string;
  className?: string;
}

export function Cover({ src, name, className }: CoverProps) {
  return (
    <img
      className={className ? `cover ${className}` : 'cover'}
      src={src || defaultCover}
      alt={`${name}'s cover photo`}
      onError={(event) => {
        if (!event.currentTarget.src.endsWith(defaultCover)) event.currentTarget.src = defaultCover;
      }}
    />
  );
}
